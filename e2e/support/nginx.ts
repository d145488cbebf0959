import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { captureOutput } from './server.js';

/** Debian's nginx, if installed (`.ci/run` installs it). */
export function nginxBinary(): string | undefined {
  for (const candidate of ['/usr/sbin/nginx', '/usr/bin/nginx'])
    if (fs.existsSync(candidate)) return candidate;
  try {
    return execFileSync('sh', ['-c', 'command -v nginx'], { encoding: 'utf8' }).trim() || undefined;
  } catch {
    return undefined;
  }
}

/** Sizes a load test raises (bench/instances.bench.mjs); the defaults suit the browser tests. */
export interface NginxTuning {
  workerConnections?: number;
  /** Idle connections to the instances kept open per worker. */
  keepalive?: number;
}

/**
 * The README's example ("Running several instances"): round robin over the instances, WebSocket
 * upgrade for /ws/devicehub, X-Forwarded-For for TRUST_PROXY, and a retry on the next instance
 * when one fails to answer (connection refused or reset), POSTs included.
 */
export function nginxConfig(
  options: { listen: number; upstreams: number[]; prefix: string; user?: string } & NginxTuning,
) {
  const { prefix, workerConnections = 1024, keepalive = 16 } = options;
  return `${options.user ? `user ${options.user};\n` : ''}worker_processes 1;
daemon off;
pid ${prefix}/nginx.pid;
error_log ${prefix}/error.log warn;
events { worker_connections ${workerConnections}; }
http {
  access_log off;
  client_body_temp_path ${prefix}/body;
  proxy_temp_path ${prefix}/proxy;
  fastcgi_temp_path ${prefix}/fastcgi;
  uwsgi_temp_path ${prefix}/uwsgi;
  scgi_temp_path ${prefix}/scgi;

  map $http_upgrade $connection_upgrade {
    default upgrade;
    ''      '';
  }

  upstream hearth {
${options.upstreams.map((port) => `    server 127.0.0.1:${port} max_fails=1 fail_timeout=5s;`).join('\n')}
    keepalive ${keepalive};
  }

  server {
    listen 127.0.0.1:${options.listen};
    client_max_body_size 6m;

    location / {
      proxy_pass http://hearth;
      proxy_http_version 1.1;
      proxy_set_header Host $http_host;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      proxy_set_header X-Forwarded-Proto $scheme;
      proxy_set_header Upgrade $http_upgrade;
      proxy_set_header Connection $connection_upgrade;
      proxy_next_upstream error timeout non_idempotent;
      proxy_connect_timeout 2s;
      proxy_read_timeout 1h;
    }
  }
}
`;
}

export interface RunningNginx {
  url: string;
  port: number;
  stop(): Promise<void>;
  errors(): string;
}

/** Starts nginx in the foreground with its own prefix, configuration and temp directories. */
export async function startNginx(
  binary: string,
  listen: number,
  upstreams: number[],
  tuning: NginxTuning = {},
): Promise<RunningNginx> {
  const prefix = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-nginx-'));
  const config = path.join(prefix, 'nginx.conf');
  // Running as root, nginx's workers would switch to "nobody", who cannot write our temp folders.
  const user = process.getuid?.() === 0 ? 'root' : undefined;
  fs.writeFileSync(config, nginxConfig({ listen, upstreams, prefix, ...tuning, ...(user ? { user } : {}) }));
  const child: ChildProcess = spawn(
    binary,
    ['-p', prefix, '-e', path.join(prefix, 'error.log'), '-c', config],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const output = captureOutput(child);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `http://127.0.0.1:${listen}`;
  const end = Date.now() + 10_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`nginx exited:\n${output()}`);
    try {
      await fetch(`${url}/healthz`);
      break;
    } catch {
      if (Date.now() > end) throw new Error(`nginx did not start:\n${output()}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  return {
    url,
    port: listen,
    errors: () => {
      try {
        return fs.readFileSync(path.join(prefix, 'error.log'), 'utf8');
      } catch {
        return output();
      }
    },
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGQUIT');
      await exited;
      fs.rmSync(prefix, { recursive: true, force: true });
    },
  };
}

// Shared helpers for benchmarks: start the built server, measure latencies, report results.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');

export async function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/**
 * Starts server/dist/main.js with a fresh DATA_DIR (or `options.dataDir`, which is then kept on
 * stop); resolves once it is ready.
 */
export async function startHearth(env = {}, options = {}) {
  const port = await freePort();
  const dataDir = options.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-bench-'));
  // The same V8 flags and malloc setting as `npm start` (package.json), so the figures are those
  // of a real install.
  // BENCH_NODE_ARGS: flags NODE_OPTIONS refuses, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof".
  const nodeArgs = (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const child = spawn(
    process.execPath,
    ['--max-semi-space-size=2', ...nodeArgs, path.join(root, 'server/dist/main.js')],
    {
      env: {
        PATH: process.env.PATH,
        MALLOC_ARENA_MAX: '1',
        // glibc's malloc settings of the bench's own environment, to try others.
        ...Object.fromEntries(
          Object.entries(process.env).filter(
            ([key]) => key.startsWith('MALLOC_') || key === 'GLIBC_TUNABLES',
          ),
        ),
        HOST: '127.0.0.1',
        LOG_LEVEL: 'warn',
        AUTH_RATE_LIMIT: '0',
        // e.g. BENCH_NODE_OPTIONS=--import=<profiler preload> to look inside Hearth during a run.
        ...(process.env.BENCH_NODE_OPTIONS ? { NODE_OPTIONS: process.env.BENCH_NODE_OPTIONS } : {}),
        ...env,
        PORT: String(port),
        DATA_DIR: dataDir,
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  await new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
      if (out.includes('Hearth is ready')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`Hearth exited with ${code}`)));
  });
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    pid: child.pid,
    stop: () =>
      new Promise((resolve) => {
        child.once('exit', () => {
          if (!options.dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
          resolve();
        });
        child.kill('SIGTERM');
      }),
  };
}

/** Resident set size of a process in MB (Linux). */
export function rssMb(pid) {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return Math.round((kb / 1024) * 10) / 10;
}

export function percentile(sorted, p) {
  if (sorted.length === 0) return Number.NaN;
  const index = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
  return sorted[Math.max(0, index)];
}

/** Prints rows as a table and writes them to bench/results/<name>.json. */
export function report(name, rows, extra = {}) {
  console.table(rows);
  const dir = path.join(import.meta.dirname, 'results');
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${name}.json`);
  fs.writeFileSync(
    file,
    `${JSON.stringify({ name, measuredAt: new Date().toISOString(), cpus: os.cpus().length, rows, ...extra }, null, 2)}\n`,
  );
  console.log(`written ${path.relative(root, file)}`);
}

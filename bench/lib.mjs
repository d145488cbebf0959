// Shared helpers for benchmarks: start the built server, measure latencies, report results.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import mqtt from 'mqtt';

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
    // BENCH_SERVER_MAIN: another build of the server to measure (e.g. one of the commit before).
    [
      '--max-semi-space-size=2',
      '--v8-pool-size=0',
      ...nodeArgs,
      process.env.BENCH_SERVER_MAIN ?? path.join(root, 'server/dist/main.js'),
    ],
    {
      env: {
        PATH: process.env.PATH,
        MALLOC_ARENA_MAX: '1',
        // glibc's malloc settings of the bench's own environment, to try others; bench/loop-probe.mjs's
        // settings, for any bench run with BENCH_NODE_OPTIONS=--import=<its path>.
        ...Object.fromEntries(
          Object.entries(process.env).filter(
            ([key]) => key.startsWith('MALLOC_') || key === 'GLIBC_TUNABLES' || key.startsWith('LOOP_PROBE_'),
          ),
        ),
        HOST: '127.0.0.1',
        LOG_LEVEL: 'warn',
        AUTH_RATE_LIMIT: '0',
        SIGNUP_RATE_LIMIT: '0',
        // e.g. BENCH_NODE_OPTIONS=--import=<profiler preload> to look inside Hearth during a run.
        ...(process.env.BENCH_NODE_OPTIONS ? { NODE_OPTIONS: process.env.BENCH_NODE_OPTIONS } : {}),
        ...env,
        PORT: String(port),
        DATA_DIR: dataDir,
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  // BENCH_SERVER_OUT: a file that gets Hearth's stdout (e.g. what BENCH_NODE_ARGS=--trace-gc prints).
  if (process.env.BENCH_SERVER_OUT) child.stdout.pipe(fs.createWriteStream(process.env.BENCH_SERVER_OUT));
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

/**
 * Runs `runMode(mode)` for each device mode in turn, each answering {rows}; returns the results by
 * mode and one row per measure with the modes' values side by side, `ok` judged on the real mode
 * when it ran (else the last), beside the extra columns `more(index)` adds.
 */
export async function sideBySide(modes, runMode, more = () => ({})) {
  const results = {};
  for (const mode of modes) {
    console.log(`\n== ${mode} devices ==`);
    results[mode] = await runMode(mode);
  }
  const judged = modes.includes('real') ? 'real' : modes.at(-1);
  const rows = results[judged].rows.map((row, index) => ({
    metric: row.metric,
    ...Object.fromEntries(modes.map((mode) => [mode, results[mode].rows[index]?.value])),
    target: row.target,
    ok: row.ok,
    ...more(index, results, judged),
  }));
  return { results, rows, judged };
}

/**
 * The machine's own stalls, measured while nothing else of the bench runs: one spinning thread per
 * CPU for `ms`; answers the share of their time they did not run and how often (per second and
 * thread) a gap exceeded 2 ms. On a quiet machine both are near 0; a virtual machine whose host is
 * busy loses CPU time in pieces of several milliseconds, which every latency measured on it carries.
 */
export async function machineGaps(ms = 3000) {
  const threads = os.cpus().length;
  const answers = await Promise.all(
    Array.from(
      { length: threads },
      () =>
        new Promise((resolve, reject) => {
          const worker = new Worker(new URL('./machine-gaps.mjs', import.meta.url), { workerData: { ms } });
          worker.once('message', resolve);
          worker.once('error', reject);
        }),
    ),
  );
  const lost = answers.reduce((sum, each) => sum + each.lost, 0);
  const gaps = answers.reduce((sum, each) => sum + each.gaps, 0);
  return {
    lostPct: Math.round((lost / (ms * threads)) * 1000) / 10,
    gapsPerS: Math.round((gaps / (ms / 1000) / threads) * 10) / 10,
    maxMs: Math.round(Math.max(...answers.map((each) => each.max)) * 10) / 10,
  };
}

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Issue 10's baseline in a bench of its own: the stream's latency straight from Mosquitto's own
 * WebSocket listener (`wsPort`) to `count` subscribers of `filter`, while `publish()` sends the
 * bench's load (answering how many) and Hearth goes on reading the bus. What the machine allows at
 * that moment: Hearth's figures of the same run are judged beside it (docs/devicehub.md#performance).
 */
export async function mosquittoWebSocketLatency({ wsPort, filter, count, publish }) {
  const subscribers = await startSubscribers({ url: `ws://127.0.0.1:${wsPort}`, filter, count });
  const sent = await publish();
  await sleep(1000);
  const { received, latencies } = await subscribers.collect();
  const sorted = latencies.slice().sort();
  return {
    p99: Math.round(percentile(sorted, 99) * 10) / 10,
    delivered: Math.round((received / (sent * count)) * 1000) / 10,
  };
}

/** CPU time (user + system) a process has used, in ms (Linux). */
export function cpuMs(pid, thread) {
  const stat = thread === undefined ? `/proc/${pid}/stat` : `/proc/${pid}/task/${thread}/stat`;
  const fields = fs.readFileSync(stat, 'utf8').split(') ')[1].split(' ');
  // utime and stime are fields 14 and 15 of stat, in clock ticks (100 per second on Linux).
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** The CPU time of a process's main thread alone (its thread id is the process id), in ms. */
export const mainThreadCpuMs = (pid) => cpuMs(pid, pid);

/** A JSON call to Hearth at `url`: `{ status, data }`, data null when the answer is not JSON. */
export async function api(url, method, route, body, token) {
  const response = await fetch(`${url}${route}`, {
    method,
    headers: {
      ...(body ? { 'Content-Type': 'application/json' } : {}),
      ...(token ? { Authorization: `Bearer ${token}` } : {}),
    },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: response.status, data: await response.json().catch(() => null) };
}

/** Signs in (POST /api/auth/login/start) and resolves with the token pair; throws when refused. */
export async function signIn(url, { email, password }) {
  const { status, data } = await api(url, 'POST', '/api/auth/login/start', { email, password });
  if (status !== 200 || !data?.access_token)
    throw new Error(`login failed: ${status} ${JSON.stringify(data)}`);
  return data;
}

/** The account a benchmark signs up first (so it is the admin). */
export const BENCH_ACCOUNT = {
  first_name: 'Bench',
  last_name: 'Mark',
  user_name: 'bench',
  email: 'bench@example.test',
  password: 'Hearth-bench-password-4711',
};

/**
 * Signs up another account (named `name`), gives it `role` and `level` rules on `roomIds`
 * (docs/access.md) as the admin of `adminToken`; resolves with a sign-in for it, as signUpBench.
 */
export async function benchPerson(url, adminToken, { name, role, roomIds, level = 'view' }) {
  const account = { email: `${name}@example.test`, password: BENCH_ACCOUNT.password };
  await api(url, 'POST', '/api/auth/signup', {
    ...account,
    user_name: name,
    first_name: 'Bench',
    last_name: name,
  });
  const call = async (method, route, body) => {
    const answer = await api(url, method, route, body, adminToken);
    if (answer.status >= 300)
      throw new Error(`${method} ${route}: ${answer.status} ${JSON.stringify(answer.data)}`);
    return answer.data;
  };
  const found = await call('GET', `/api/auth/users?q=${encodeURIComponent(account.email)}`);
  const id = found.users[0].id;
  if (role !== 'user') await call('PATCH', `/api/auth/users/${id}`, { role });
  await call('PUT', `/api/access/${id}`, { rooms: Object.fromEntries(roomIds.map((room) => [room, level])) });
  return () => signIn(url, account);
}

/** Signs BENCH_ACCOUNT up; resolves with a sign-in that gives a fresh token pair each call. */
export async function signUpBench(url) {
  await api(url, 'POST', '/api/auth/signup', BENCH_ACCOUNT);
  return () => signIn(url, BENCH_ACCOUNT);
}

/**
 * Resolves with the hub's device list once it holds `count` devices; asks every 250 ms (an answer
 * other than 200 counts as not yet) and throws after `seconds`, with the last answer.
 */
export async function hubDevices(url, token, count, seconds = 60) {
  const deadline = Date.now() + seconds * 1000;
  let last;
  for (;;) {
    last = await api(url, 'GET', '/api/devicehub/devices', undefined, token);
    if (last.status === 200 && Array.isArray(last.data) && last.data.length >= count) return last.data;
    if (Date.now() > deadline) break;
    await sleep(250);
  }
  const listed = Array.isArray(last.data)
    ? `${last.data.length} of ${count} devices`
    : JSON.stringify(last.data);
  throw new Error(`the hub lists ${listed} after ${seconds} s (last answer ${last.status})`);
}

/**
 * An own Mosquitto (/usr/sbin/mosquitto) on a free port of 127.0.0.1, anonymous and without
 * persistence, with `settings` (lines of mosquitto.conf, e.g. 'set_tcp_nodelay true') and, with
 * `websockets`, a second listener for MQTT over WebSocket; resolves once it accepts a client.
 */
export async function startMosquitto({ settings = [], websockets = false } = {}) {
  const port = await freePort();
  const wsPort = websockets ? await freePort() : undefined;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-bench-mosquitto-'));
  const config = path.join(dir, 'mosquitto.conf');
  fs.writeFileSync(
    config,
    [
      'per_listener_settings false',
      'allow_anonymous true',
      'persistence false',
      'log_dest none',
      ...settings,
      `listener ${port} 127.0.0.1`,
      ...(websockets ? [`listener ${wsPort} 127.0.0.1`, 'protocol websockets'] : []),
      '',
    ].join('\n'),
  );
  const child = spawn('/usr/sbin/mosquitto', ['-c', config], { stdio: ['ignore', 'ignore', 'inherit'] });
  const deadline = Date.now() + 10_000;
  for (;;) {
    try {
      const probe = await mqtt.connectAsync(`mqtt://127.0.0.1:${port}`, {
        reconnectPeriod: 0,
        connectTimeout: 1000,
      });
      await probe.endAsync(true);
      break;
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await sleep(100);
    }
  }
  return {
    url: `mqtt://127.0.0.1:${port}`,
    port,
    wsPort,
    pid: child.pid,
    stop: () =>
      new Promise((resolve) => {
        child.once('exit', () => {
          fs.rmSync(dir, { recursive: true, force: true });
          resolve();
        });
        child.kill('SIGTERM');
      }),
  };
}

/**
 * `count` subscribers of `filter` (a filter or a list of them) at `url` (MQTT over TCP or
 * WebSocket; `password` signs in as "bench") in a worker thread (subscribers.mjs), each timing
 * publish → receive from the "bench_ts" field a message ends with. Resolves once they are
 * subscribed and retained state is drained; `collect()` ends them and resolves with
 * `{ received, latencies }`, and with `kinds` (a Map of topic → kind index 0–254) also `kinds`,
 * each latency's kind (255: a topic not in the map).
 */
export async function startSubscribers({ url, filter, password, count, kinds }) {
  const worker = new Worker(new URL('./subscribers.mjs', import.meta.url), {
    workerData: { url, filter, password, count, kinds },
  });
  const exited = new Promise((resolve) => worker.once('exit', resolve));
  const messages = [];
  let notify;
  worker.on('message', (message) => {
    messages.push(message);
    notify?.();
  });
  worker.on('error', (error) => {
    messages.push({ error });
    notify?.();
  });
  const next = async () => {
    while (messages.length === 0) await new Promise((resolve) => (notify = resolve));
    const message = messages.shift();
    if (message.error) throw message.error;
    return message;
  };
  await next(); // ready
  return {
    async collect() {
      worker.postMessage('collect');
      const result = await next();
      await exited;
      return result;
    },
  };
}

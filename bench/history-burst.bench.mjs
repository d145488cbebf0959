// History burst (issue 32 item 6, docs/history.md#limits): does the rest of the API keep answering
// while one person asks for many large charts at once?
//
// Hearth on SQLite (the default install) with a sensor holding one reading a second for the last
// 6 hours (seeded through Hearth's own repository) and a plug; a `user` whose one room holds the
// sensor sends BURST_REQUESTS (300) parallel `GET /api/history?…&points=20000` over the last
// 5.5 hours (about 19 800 raw readings, ≈ 560 KB each), from a worker thread, so that this
// thread's timings are not the load's. Meanwhile an admin's probes run one after another: `GET
// /healthz` and a device command (`POST /api/devicehub/devices/{plug}/commands`). Phases:
//   - idle: the probes alone (BENCH_BURST_IDLE_SECONDS, 5);
//   - burst: the 300 requests at once, each sent again after its Retry-After when refused, until
//     every one has its chart (a client that honours 429), or BENCH_BURST_SECONDS (60);
//   - flood: the 300 again for BENCH_FLOOD_SECONDS (10), each sent again as soon as it is answered,
//     whatever the answer (a client that ignores 429).
// The probes' p99 in each phase side by side; target: ≤ 100 ms during the burst.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import mqtt from 'mqtt';
import { tsImport } from 'tsx/esm/api';
import {
  api,
  benchPerson,
  hubDevices,
  percentile,
  report,
  signIn,
  sleep,
  startHearth,
  startMosquitto,
} from './lib.mjs';

const root = path.resolve(import.meta.dirname, '..');
const BURST_REQUESTS = Number(process.env.BENCH_BURST_REQUESTS ?? 300);
const IDLE_SECONDS = Number(process.env.BENCH_BURST_IDLE_SECONDS ?? 5);
const BURST_SECONDS = Number(process.env.BENCH_BURST_SECONDS ?? 60);
const FLOOD_SECONDS = Number(process.env.BENCH_FLOOD_SECONDS ?? 10);
const POINTS = 20_000;
const SECOND = 1000;
const HOUR = 3_600_000;
const SEEDED_MS = 6 * HOUR;
const RANGE_MS = 5.5 * HOUR;
/** Pause between two probes (ms): about 20 probes a second when the server answers at once. */
const PROBE_PAUSE_MS = 40;
const TARGET_P99_MS = 100;
const BASE = 'zigbee2mqtt';
const admin = { email: 'bench@example.com', password: 'bench-password-1' };

const round = (value) => (Number.isFinite(value) ? Math.round(value * 10) / 10 : value);
const server = (file) => tsImport(pathToFileURL(path.join(root, 'server/src', file)).href, import.meta.url);

// ---- the load, in a worker thread --------------------------------------------------------------

/**
 * `count` clients asking for `url` at once. `polite`: each until it has a 200, after Retry-After
 * when refused (at most `seconds`); else each again and again for `seconds`, whatever the answer.
 */
async function load({ url, token, count, polite, seconds }) {
  const started = performance.now();
  const elapsed = () => performance.now() - started;
  const stats = { sent: 0, ok: 0, refused: 0, other: 0, bytes: 0, latencies: [], retryAfter: new Set() };
  const ask = async () => {
    const t0 = performance.now();
    stats.sent++;
    try {
      const response = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
      const body = await response.arrayBuffer();
      if (response.status === 200) {
        stats.ok++;
        stats.bytes += body.byteLength;
        stats.latencies.push(performance.now() - t0);
      } else if (response.status === 429) {
        stats.refused++;
        stats.retryAfter.add(response.headers.get('retry-after'));
      } else stats.other++;
      return response;
    } catch {
      stats.other++;
      return undefined;
    }
  };
  const client = async () => {
    while (elapsed() < seconds * SECOND) {
      const response = await ask();
      if (!polite) continue;
      if (response?.status !== 429) return;
      await sleep(Number(response.headers.get('retry-after') ?? 1) * SECOND);
    }
  };
  await Promise.all(Array.from({ length: count }, client));
  return { ...stats, retryAfter: [...stats.retryAfter].join(' '), ms: elapsed() };
}

function startLoad(options) {
  const worker = new Worker(new URL(import.meta.url), { workerData: options });
  return new Promise((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
}

// ---- the admin's probes ------------------------------------------------------------------------

/** Runs the admin's probes one after another until `done` settles; their latencies by kind. */
async function probe(url, token, plugId, done) {
  let finished = false;
  void done.finally(() => {
    finished = true;
  });
  const times = { health: [], command: [] };
  const timed = async (kind, call) => {
    const t0 = performance.now();
    const response = await call();
    await response.arrayBuffer();
    if (response.status !== 200) throw new Error(`${kind}: ${response.status}`);
    times[kind].push(performance.now() - t0);
  };
  for (let i = 0; !finished; i++) {
    await timed('health', () => fetch(`${url}/healthz`));
    await timed('command', () =>
      fetch(`${url}/api/devicehub/devices/${plugId}/commands`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ state: { state: i % 2 ? 'ON' : 'OFF' } }),
      }),
    );
    await sleep(PROBE_PAUSE_MS);
  }
  await done;
  const summary = (list) => {
    const sorted = [...list].sort((a, b) => a - b);
    return {
      n: sorted.length,
      p50: round(percentile(sorted, 50)),
      p99: round(percentile(sorted, 99)),
      max: round(sorted.at(-1)),
    };
  };
  return { health: summary(times.health), command: summary(times.command) };
}

// ---- set-up ------------------------------------------------------------------------------------

const binary = (property) => ({
  type: 'binary',
  name: property,
  property,
  access: 7,
  value_on: 'ON',
  value_off: 'OFF',
  value_toggle: 'TOGGLE',
});
const device = (i, name, exposes) => ({
  ieee_address: `0x00124b00${i.toString(16).padStart(8, '0')}`,
  friendly_name: name,
  type: 'EndDevice',
  supported: true,
  disabled: false,
  interview_completed: true,
  definition: { model: 'bench', vendor: 'Bench', description: name, exposes },
});
const DEVICES = [
  device(1, 'burst_sensor', [{ type: 'numeric', name: 'temperature', property: 'temperature', access: 1 }]),
  device(2, 'burst_plug', [{ type: 'switch', features: [binary('state')] }]),
];

/** One reading a second for the last SEEDED_MS, written while Hearth is stopped. */
async function seed(file, deviceId) {
  const { openStorage } = await server('storage/database.ts');
  const { HistoryRepository } = await server('history/history.repository.ts');
  const storage = openStorage({ sqliteFile: file });
  try {
    const repository = new HistoryRepository(storage.db);
    const [series] = await repository.ensureSeries([
      { device_id: deviceId, property: 'temperature', type: 'number' },
    ]);
    const end = Math.floor(Date.now() / SECOND) * SECOND;
    for (let t = end - SEEDED_MS; t < end; ) {
      const rows = [];
      for (; rows.length < 10_000 && t < end; t += SECOND)
        rows.push({ series_id: series.id, t, v: Math.round((20 + Math.sin(t / HOUR) * 3) * 10) / 10 });
      await repository.insertRaw(rows);
    }
  } finally {
    await storage.close();
  }
}

async function main() {
  const mosquitto = await startMosquitto({ settings: ['set_tcp_nodelay true'] });
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-bench-burst-'));
  const env = {
    MQTT_URL: mosquitto.url,
    SIMULATOR: 'off',
    ADMIN_EMAIL: admin.email,
    ADMIN_PASSWORD: admin.password,
  };
  const publisher = await mqtt.connectAsync(mosquitto.url, { protocolVersion: 4 });
  let hearth;
  try {
    // First start: the devices get their ids; then the readings go in while Hearth is stopped.
    hearth = await startHearth(env, { dataDir });
    await publisher.publishAsync(`${BASE}/bridge/devices`, JSON.stringify(DEVICES), { retain: true });
    let token = (await signIn(hearth.url, admin)).access_token;
    const list = await hubDevices(hearth.url, token, DEVICES.length);
    const sensor = list.find((d) => d.name === 'burst_sensor');
    const plug = list.find((d) => d.name === 'burst_plug');
    await hearth.stop();
    hearth = undefined;
    await seed(path.join(dataDir, 'hearth.db'), sensor.id);

    hearth = await startHearth(env, { dataDir });
    token = (await signIn(hearth.url, admin)).access_token;
    await hubDevices(hearth.url, token, DEVICES.length);
    const call = async (method, route, body) => {
      const answer = await api(hearth.url, method, route, body, token);
      if (answer.status >= 300) throw new Error(`${method} ${route}: ${answer.status}`);
      return answer.data;
    };
    const room = await call('POST', '/api/rooms', { name: 'Burst room' });
    await call('PUT', `/api/rooms/${room.id}/devices`, { device_ids: [sensor.id] });
    const person = await benchPerson(hearth.url, token, { name: 'burst', role: 'user', roomIds: [room.id] });
    const userToken = (await person()).access_token;
    const to = Date.now();
    const historyUrl = `${hearth.url}/api/history?device_id=${sensor.id}&property=temperature&from=${to - RANGE_MS}&to=${to}&points=${POINTS}`;
    const sample = await api(hearth.url, 'GET', historyUrl.slice(hearth.url.length), undefined, userToken);
    if (sample.status !== 200 || sample.data.resolution !== 'raw')
      throw new Error(`the user's chart: ${sample.status} ${sample.data?.resolution}`);
    console.log(`each answer: ${sample.data.points.length} raw points`);

    const phase = async (name, loadOptions) => {
      await sleep(1000);
      const done = loadOptions ? startLoad(loadOptions) : sleep(IDLE_SECONDS * SECOND);
      const probes = await probe(hearth.url, token, plug.id, done);
      const loaded = loadOptions ? await done : undefined;
      console.log(`${name}: health p99 ${probes.health.p99} ms, command p99 ${probes.command.p99} ms`);
      return { probes, loaded };
    };
    const idle = await phase('idle');
    const common = { url: historyUrl, token: userToken, count: BURST_REQUESTS };
    const burst = await phase('burst', { ...common, polite: true, seconds: BURST_SECONDS });
    const flood = await phase('flood', { ...common, polite: false, seconds: FLOOD_SECONDS });

    const phases = { idle, burst, flood };
    const row = (metric, read, limit) => ({
      metric,
      ...Object.fromEntries(Object.entries(phases).map(([name, p]) => [name, read(p)])),
      ...(limit ? { target: `burst <= ${limit}`, ok: read(burst) <= limit } : {}),
    });
    const loadRow = (metric, read) => row(metric, (p) => (p.loaded ? read(p.loaded) : ''));
    const rows = [
      row('GET /healthz p50 ms', (p) => p.probes.health.p50),
      row('GET /healthz p99 ms', (p) => p.probes.health.p99, TARGET_P99_MS),
      row('GET /healthz max ms', (p) => p.probes.health.max),
      row('command p50 ms', (p) => p.probes.command.p50),
      row('command p99 ms', (p) => p.probes.command.p99, TARGET_P99_MS),
      row('command max ms', (p) => p.probes.command.max),
      row('probes (each kind)', (p) => p.probes.health.n),
      loadRow('history requests sent', (l) => l.sent),
      loadRow('answered 200', (l) => l.ok),
      loadRow('answered 429', (l) => l.refused),
      loadRow('other answers or errors', (l) => l.other),
      loadRow('Retry-After (s)', (l) => l.retryAfter),
      loadRow('phase length s', (l) => round(l.ms / SECOND)),
      loadRow('charts served /s', (l) => round((l.ok * SECOND) / l.ms)),
      loadRow('chart latency p50 ms', (l) =>
        round(
          percentile(
            [...l.latencies].sort((a, b) => a - b),
            50,
          ),
        ),
      ),
      loadRow('KB per chart', (l) => (l.ok ? Math.round(l.bytes / l.ok / 1024) : '')),
    ];
    const p99 = Math.max(burst.probes.health.p99, burst.probes.command.p99);
    const targetsMet = {
      [`API p99 during the burst <= ${TARGET_P99_MS} ms`]: p99 <= TARGET_P99_MS,
      'every request of the burst answered with its chart': burst.loaded.ok === BURST_REQUESTS,
    };
    report('history-burst', rows, {
      requests: BURST_REQUESTS,
      points: POINTS,
      rangeHours: RANGE_MS / HOUR,
      // The code measured (a run against an earlier commit, from a worktree, says which).
      commit: execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root }).toString().trim(),
      targetsMet,
    });
    console.table(targetsMet);
  } finally {
    await publisher.endAsync(true).catch(() => {});
    await hearth?.stop();
    await mosquitto.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

// This file is also the load's worker thread.
if (isMainThread) await main();
else parentPort.postMessage(await load(workerData));

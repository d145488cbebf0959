// Device stream: Zigbee2MQTT state updates for 2000 devices published on a Mosquitto bus, measured
// side by side (a) straight from Mosquitto's own WebSocket listener and (b) through Hearth's
// /ws/devicehub, each to 10 MQTT.js subscribers. Reports publish-to-receive latency, the highest
// rate delivered without falling behind, Hearth's RSS and the memory of extra idle connections.
// The subscribers run in a worker thread so that the publisher's timing is not disturbed.
// Two device modes, each on a fresh Mosquitto and Hearth (issue 10): "simulator" (2000 small
// temperature sensors) and "real" (2000 devices cloned from real lights, plugs and sensors of
// zigbee-herdsman-converters, whole states as Zigbee2MQTT publishes them). BENCH_MODES=real runs one.
// BENCH_MEMORY=1: only the idle RSS, with where Hearth's memory goes (bench/memory-probe.mjs: V8's
// heap by space, external, malloc, the resident set by mapping), before and after a forced GC;
// BENCH_MEMORY=snapshot also writes a heap snapshot, BENCH_MEMORY=mappings lists the largest
// anonymous mappings, BENCH_MEMORY=allocations what each function allocated, garbage included
// (several: snapshot,mappings). No rate steps.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import mqtt from 'mqtt';
import { freePort, percentile, report, rssMb, startHearth } from './lib.mjs';
import { realDevices } from './real-devices.mjs';

const DEVICES = 2000;
const SUBSCRIBERS = 10;
const STEP_MS = 4000;
// BENCH_RATES=1000 measures one rate only, for a quick look.
const RATES = process.env.BENCH_RATES
  ? process.env.BENCH_RATES.split(',').map(Number)
  : [1000, 2000, 4000, 8000, 16000, 32000];
const EXTRA_CONNECTIONS = 100;
// A step keeps up when (nearly) every message arrives within the grace time and no queue builds
// up: the median latency of the step's last quarter exceeds its first quarter's by < LAG_MS.
const GRACE_MS = 3000;
const LAG_MS = 100;
const DELIVERED_MIN = 0.995;
const MEMORY = process.env.BENCH_MEMORY;
const MODES = process.env.BENCH_MODES ? process.env.BENCH_MODES.split(',') : ['simulator', 'real'];
const BASE = 'zigbee2mqtt';
const P = 'hearth/devicehub';

const now = () => performance.timeOrigin + performance.now();
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// ---- worker: the subscribers ------------------------------------------------------------------

async function runSubscribers({ url, filter, password, count }) {
  const latencies = [];
  let received = 0;
  const clients = await Promise.all(
    Array.from({ length: count }, (_, i) =>
      mqtt.connectAsync(url, {
        protocolVersion: 4,
        clean: true,
        reconnectPeriod: 0,
        clientId: `rt-${Date.now()}-${i}`,
        ...(password ? { username: 'bench', password } : {}),
      }),
    ),
  );
  for (const client of clients) {
    client.on('message', (_topic, payload, packet) => {
      if (packet.retain) return;
      // The send time is the last field; reading it needs no JSON.parse of the whole state.
      const text = payload.toString('latin1');
      const at = text.lastIndexOf('"bench_ts":');
      if (at < 0) return;
      received++;
      latencies.push(now() - Number.parseFloat(text.slice(at + 11)));
    });
    await client.subscribeAsync(filter, { qos: 0 });
  }
  parentPort.on('message', async (message) => {
    if (message === 'collect') {
      parentPort.postMessage({ received, latencies: Float64Array.from(latencies) });
      await Promise.all(clients.map((client) => client.endAsync(true)));
      process.exit(0);
    }
  });
  // Retained state (Hearth sends 2000 devices on subscribe) must be drained before measuring.
  await sleep(1000);
  parentPort.postMessage('ready');
}

// ---- main: brokers, publisher, measurements ---------------------------------------------------

/** The devices of a mode: `bridge/devices` and each message's text without its bench_ts. */
function devicesFor(mode) {
  if (mode === 'simulator') {
    return {
      list: deviceList(),
      message: (_device, count) => {
        const temperature = (18 + ((count * 7) % 80) / 10).toFixed(1);
        return `{"temperature":${temperature},"humidity":${40 + (count % 20)},"linkquality":${100 + (count % 50)}`;
      },
    };
  }
  const real = realDevices(DEVICES, { name, extraExposes: [BENCH_TS_EXPOSE] });
  // Two whole states per device, alternating, made before the clock runs (the publisher stays cheap).
  const texts = [0, 1].map((seed) =>
    Array.from({ length: DEVICES }, (_, i) => JSON.stringify(real.state(i, seed)).slice(0, -1)),
  );
  return { list: real.list, message: (device, count) => texts[count % 2][device] };
}

async function main() {
  if (MEMORY) {
    for (const mode of MODES) {
      console.log(`\n== ${mode} devices ==`);
      await runMode(mode);
    }
    return;
  }
  const results = {};
  for (const mode of MODES) {
    console.log(`\n== ${mode} devices ==`);
    results[mode] = await runMode(mode);
  }
  const modeRows = MODES.flatMap((mode) => results[mode].summary.map((row) => ({ mode, ...row })));
  // Issue 10's table: the real-definitions mode beside its targets.
  const issueRows = MODES.flatMap((mode) => {
    const r = results[mode];
    const hub = r.at1000('Hearth /ws/devicehub');
    const base = r.at1000('Mosquitto WebSocket (baseline)');
    return [
      {
        mode,
        measure: 'hub publish → browser p99 / max at 1000 updates/s (ms)',
        value: `${hub['p99 ms']} / ${hub['max ms']}`,
        baseline: `Mosquitto WebSocket ${base['p99 ms']} / ${base['max ms']}`,
        target: '≤ 5 / ≤ 20',
        ok: hub['p99 ms'] <= 5 && hub['max ms'] <= 20,
      },
      {
        mode,
        measure: `server RSS idle with ${DEVICES} devices (MB)`,
        value: r.idleRss,
        baseline: '',
        target: '≤ 128',
        ok: r.idleRss <= 128,
      },
    ];
  });
  console.log('\nBoth modes, side by side (the baseline from the same run):');
  report('devicehub-stream', modeRows, {
    devices: DEVICES,
    subscribers: SUBSCRIBERS,
    stepMs: STEP_MS,
    issue10: issueRows,
    modes: Object.fromEntries(MODES.map((mode) => [mode, results[mode].extra])),
    note: `the ${SUBSCRIBERS} subscribers share one worker thread on the same ${os.cpus().length} CPUs, so at the highest rates the measuring client itself may be what falls behind`,
  });
  console.log('\nIssue 10 (the targets are for the real mode):');
  console.table(issueRows);
}

async function runMode(mode) {
  const devices = devicesFor(mode);
  const admin = { email: 'bench@example.com', password: 'bench-password-1' };
  const mosquitto = await startMosquitto();
  const probeOut = MEMORY ? path.join(os.tmpdir(), `hearth-memory-${process.pid}-${mode}.json`) : undefined;
  let hearth;
  let publisher;
  try {
    hearth = await startHearth({
      MQTT_URL: `mqtt://127.0.0.1:${mosquitto.port}`,
      SIMULATOR: 'off',
      ADMIN_EMAIL: admin.email,
      ADMIN_PASSWORD: admin.password,
      ...(probeOut
        ? {
            NODE_OPTIONS: [
              process.env.BENCH_NODE_OPTIONS,
              `--import=${path.join(import.meta.dirname, 'memory-probe.mjs')}`,
            ]
              .filter(Boolean)
              .join(' '),
            MEMORY_PROBE_OUT: probeOut,
            ...(MEMORY.includes('snapshot') ? { MEMORY_PROBE_SNAPSHOT: '1' } : {}),
            ...(MEMORY.includes('mappings') ? { MEMORY_PROBE_MAPPINGS: '1' } : {}),
            ...(MEMORY.includes('allocations') ? { MEMORY_PROBE_ALLOCATIONS: '1' } : {}),
          }
        : {}),
    });
    publisher = await mqtt.connectAsync(`mqtt://127.0.0.1:${mosquitto.port}`, {
      clientId: 'bench-z2m',
      protocolVersion: 4,
    });
    publisher.stream.setNoDelay?.(true);
    const token = await login(hearth.url, admin);
    const listText = JSON.stringify(devices.list);
    console.log(`bridge/devices: ${(listText.length / 1e6).toFixed(1)} MB`);
    await publisher.publishAsync(`${BASE}/bridge/devices`, listText, { retain: true });
    await waitForDevices(hearth.url, token);

    const targets = [
      {
        name: 'Mosquitto WebSocket (baseline)',
        url: `ws://127.0.0.1:${mosquitto.wsPort}`,
        filter: `${BASE}/+`,
        pid: mosquitto.pid,
      },
      {
        name: 'Hearth /ws/devicehub',
        url: `ws://${hearth.url.slice(7)}/ws/devicehub`,
        filter: `${P}/devices/+`,
        password: token,
        pid: hearth.pid,
      },
      // Context only: the same Mosquitto to MQTT.js over plain TCP.
      {
        name: 'Mosquitto TCP (reference)',
        url: `mqtt://127.0.0.1:${mosquitto.port}`,
        filter: `${BASE}/+`,
        pid: mosquitto.pid,
      },
    ];
    const [wsBaseline, throughHearth] = targets;
    // Warm-up: JIT, database writer, first deliveries.
    for (const target of targets) await step(publisher, target, 1000, 1500, target.pid, devices);
    const idleRss = await steadyRss(hearth.pid);
    if (probeOut) {
      // V8 gives back what it no longer needs only when it sees the process idle for a while.
      const later = [];
      for (let i = 0; i < 6; i++) {
        await sleep(5000);
        later.push(rssMb(hearth.pid));
      }
      console.log(`Hearth RSS idle: ${idleRss} MB; every 5 s after: ${later.join(', ')} MB`);
      console.log(JSON.stringify(await probe(hearth.pid, probeOut), null, 2));
      return;
    }
    // Before the rate steps, while the heap is steady: after them garbage collection moves RSS
    // by more than 100 connections weigh.
    const memory = {
      mosquitto: await extraConnections(mosquitto.pid, wsBaseline),
      hearth: await extraConnections(hearth.pid, throughHearth),
    };

    const rows = [];
    const sustained = {};
    let hearthPeakRss = 0;
    // Both targets step up together (a then b at each rate), so that both meet the same load
    // from the rest of the machine; a target stops at the first rate it does not keep up with.
    const active = new Set(targets);
    for (const target of targets) sustained[target.name] = 0;
    for (const rate of RATES) {
      for (const target of targets) {
        if (!active.has(target)) continue;
        let peak = 0;
        const sampler = setInterval(() => {
          peak = Math.max(peak, rssMb(hearth.pid));
        }, 250);
        const result = await step(publisher, target, rate, STEP_MS, target.pid, devices);
        clearInterval(sampler);
        if (target.password && rate === 1000) hearthPeakRss = peak;
        rows.push({ target: target.name, 'rate /s': rate, ...result.row });
        if (result.keptUp) sustained[target.name] = rate;
        else active.delete(target);
      }
      if (active.size === 0) break;
    }

    const afterRunRss = rssMb(hearth.pid);

    const at1000 = (name) => rows.find((r) => r.target === name && r['rate /s'] === 1000) ?? {};
    const summary = targets.map((target) => ({
      target: target.name,
      'p50 ms @1000/s': at1000(target.name)['p50 ms'],
      'p99 ms @1000/s': at1000(target.name)['p99 ms'],
      'max ms @1000/s': at1000(target.name)['max ms'],
      'sustained /s': sustained[target.name],
      'RSS MB (2000 devices, 1000/s)': target === throughHearth ? hearthPeakRss : rssMb(mosquitto.pid),
      'KB per extra connection':
        target === throughHearth ? memory.hearth : target === wsBaseline ? memory.mosquitto : '',
    }));
    console.log('\nPer step:');
    console.table(rows);
    const [baseline, through] = summary;
    const targetsMet = {
      'hearth p99 <= 5 ms @1000/s': through['p99 ms @1000/s'] <= 5,
      'hearth sustained >= 0.5 x mosquitto': through['sustained /s'] >= 0.5 * baseline['sustained /s'],
      'hearth RSS <= 150 MB (2000 devices)': hearthPeakRss <= 150,
      'hearth <= 64 KB per extra connection': memory.hearth >= 0 && memory.hearth <= 64,
    };
    console.table(summary);
    console.table(targetsMet);
    return {
      summary,
      idleRss,
      at1000: (name) => at1000(name),
      extra: {
        bridgeDevicesMb: Math.round(listText.length / 1e5) / 10,
        hearthRssMb: {
          idleWith2000Devices: idleRss,
          peakAt1000PerSecond: hearthPeakRss,
          afterHighestRates: afterRunRss,
        },
        steps: rows,
        targetsMet,
      },
    };
  } finally {
    await publisher?.endAsync(true).catch(() => {});
    await hearth?.stop();
    await mosquitto.stop();
  }
}

/** One rate step: fresh subscribers, STEP_MS of publishing at `rate`, then what arrived. */
async function step(publisher, target, rate, ms, pid, devices) {
  const worker = new Worker(new URL(import.meta.url), {
    workerData: { url: target.url, filter: target.filter, password: target.password, count: SUBSCRIBERS },
  });
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

  const cpuBefore = cpuMs(pid);
  const sent = await publishAt(publisher, rate, ms, devices);
  await sleep(GRACE_MS);
  const cpu = cpuMs(pid) - cpuBefore;
  worker.postMessage('collect');
  const { received, latencies } = await next();
  await new Promise((resolve) => worker.once('exit', resolve));

  // Latencies are in arrival order: a growing latency means the receivers fall behind.
  const quarter = Math.floor(latencies.length / 4);
  const median = (values) => percentile(Float64Array.from(values).sort(), 50);
  const growth =
    quarter > 0 ? median(latencies.subarray(-quarter)) - median(latencies.subarray(0, quarter)) : 0;
  const sorted = latencies.slice().sort();
  const expected = sent.count * SUBSCRIBERS;
  const delivered = received / expected;
  const p99 = percentile(sorted, 99);
  const publisherKeptUp = sent.count >= (0.98 * (rate * ms)) / 1000;
  return {
    keptUp: publisherKeptUp && delivered >= DELIVERED_MIN && growth < LAG_MS,
    row: {
      'sent /s': Math.round((sent.count * 1000) / sent.ms),
      'delivered %': Math.round(delivered * 1000) / 10,
      'p50 ms': round(percentile(sorted, 50)),
      'p99 ms': round(p99),
      'max ms': round(sorted[sorted.length - 1]),
      'latency growth ms': round(growth),
      // Less sensitive to other load on the machine than latency: the server's own work.
      'server CPU ms per 1000 updates': round((cpu * 1000) / sent.count),
    },
  };
}

/** Publishes state updates round-robin over the devices at `rate` per second for `ms`. */
async function publishAt(publisher, rate, ms, devices) {
  const started = now();
  let count = 0;
  let device = 0;
  for (;;) {
    const elapsed = now() - started;
    if (elapsed >= ms) break;
    const due = Math.floor((elapsed * rate) / 1000) - count;
    for (let i = 0; i < due; i++) {
      device = (device + 1) % DEVICES;
      // The send time goes last, where the subscribers look for it.
      publisher.publish(`${BASE}/${name(device)}`, `${devices.message(device, count)},"bench_ts":${now()}}`);
      count++;
    }
    await sleep(2);
  }
  return { count, ms: now() - started };
}

/**
 * RSS growth of `pid` per connection for EXTRA_CONNECTIONS idle, subscribed clients, in KB. A
 * first batch is opened unmeasured: the allocations of connecting set off the garbage collection
 * of earlier work, which would otherwise shrink RSS by more than the connections add.
 */
async function extraConnections(pid, target) {
  const clients = [];
  const open = async () => {
    for (let i = 0; i < EXTRA_CONNECTIONS; i++) {
      const client = await mqtt.connectAsync(target.url, {
        protocolVersion: 4,
        clean: true,
        reconnectPeriod: 0,
        clientId: `rt-idle-${Date.now()}-${clients.length}`,
        ...(target.password ? { username: 'bench', password: target.password } : {}),
      });
      client.on('message', () => {});
      // Idle: connected and subscribed, without the 2000 retained states whose transient garbage
      // would swamp the per-connection figure.
      await client.subscribeAsync(target.password ? `${P}/events/#` : `${BASE}/bridge/event`);
      clients.push(client);
    }
  };
  await open();
  const before = await steadyRss(pid);
  await open();
  const after = await steadyRss(pid);
  await Promise.all(clients.map((client) => client.endAsync(true)));
  return Math.round(((after - before) * 1024) / EXTRA_CONNECTIONS);
}

// ---- fixtures and helpers ---------------------------------------------------------------------

const name = (i) => `bench_sensor_${String(i).padStart(4, '0')}`;

// bench_ts carries the send time; exposed, because the hub keeps only the keys a device exposes.
const BENCH_TS_EXPOSE = {
  type: 'numeric',
  name: 'bench_ts',
  property: 'bench_ts',
  access: 1,
  unit: 'ms',
  description: 'bench_ts',
};

/** Zigbee2MQTT's retained bridge/devices: DEVICES temperature/humidity sensors. */
function deviceList() {
  const numeric = (property, unit) => ({
    type: 'numeric',
    name: property,
    property,
    access: 1,
    unit,
    description: property,
  });
  return Array.from({ length: DEVICES }, (_, i) => ({
    ieee_address: `0x00124b00${i.toString(16).padStart(8, '0')}`,
    friendly_name: name(i),
    type: 'EndDevice',
    supported: true,
    disabled: false,
    interview_completed: true,
    software_build_id: '1.0.0',
    definition: {
      model: 'WSDCGQ11LM',
      vendor: 'Aqara',
      description: 'Temperature, humidity and pressure sensor',
      // bench_ts carries the send time; exposed, because the hub keeps only the keys a device exposes.
      exposes: [
        numeric('temperature', '°C'),
        numeric('humidity', '%'),
        numeric('linkquality', 'lqi'),
        numeric('bench_ts', 'ms'),
      ],
    },
  }));
}

async function login(url, { email, password }) {
  const response = await fetch(`${url}/api/auth/login/start`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  const body = await response.json();
  if (!response.ok || !body.access_token)
    throw new Error(`login failed: ${response.status} ${JSON.stringify(body)}`);
  return body.access_token;
}

async function waitForDevices(url, token) {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    const response = await fetch(`${url}/api/devicehub/devices`, {
      headers: { authorization: `Bearer ${token}` },
    });
    if (response.ok) {
      const devices = await response.json();
      if (Array.isArray(devices) && devices.length >= DEVICES) return;
    }
    await sleep(250);
  }
  throw new Error(`Hearth did not list ${DEVICES} devices within 60 s`);
}

async function startMosquitto() {
  const port = await freePort();
  const wsPort = await freePort();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-bench-mosquitto-'));
  const config = path.join(dir, 'mosquitto.conf');
  fs.writeFileSync(
    config,
    [
      'per_listener_settings false',
      'allow_anonymous true',
      'persistence false',
      'log_dest none',
      // Small packets go out at once (Nagle's algorithm would hold them for an ACK).
      'set_tcp_nodelay true',
      `listener ${port} 127.0.0.1`,
      `listener ${wsPort} 127.0.0.1`,
      'protocol websockets',
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

/** Asks bench/memory-probe.mjs inside Hearth for its breakdown. */
async function probe(pid, file) {
  fs.rmSync(file, { force: true });
  process.kill(pid, 'SIGUSR2');
  const deadline = Date.now() + 60_000;
  while (!fs.existsSync(file)) {
    if (Date.now() > deadline) throw new Error('no memory breakdown from Hearth');
    await sleep(200);
  }
  await sleep(200);
  const result = JSON.parse(fs.readFileSync(file, 'utf8'));
  fs.rmSync(file);
  return result;
}

/** RSS once it stops moving (garbage collection after load settles), at most 20 s. */
async function steadyRss(pid) {
  let last = rssMb(pid);
  const deadline = Date.now() + 20_000;
  let steady = 0;
  while (Date.now() < deadline && steady < 4) {
    await sleep(500);
    const now = rssMb(pid);
    steady = Math.abs(now - last) < 0.3 ? steady + 1 : 0;
    last = now;
  }
  return last;
}

/** CPU time (user + system) a process has used, in ms (Linux). */
function cpuMs(pid) {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  // utime and stime are fields 14 and 15 of stat, in clock ticks (100 per second on Linux).
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

function round(value) {
  return Number.isFinite(value) ? Math.round(value * 100) / 100 : value;
}

if (!isMainThread) await runSubscribers(workerData);
else await main();

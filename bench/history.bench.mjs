// History (docs/history.md), in two parts.
// A. A year of one sensor at one reading a minute (525 600 rows) stored through Hearth's own
//    repository and rolled up by its own maintenance, then the API's answer time through the
//    running server for 1 year, 30 days, 7 days, 24 hours and 6 hours on SQLite, and the database
//    size per device-year (all year raw, and at the default retention).
// C. Chart: uPlot's first draw of 10 000 points with a min/max band in Debian's Chromium (the
//    library with the page's kind of options, on a blank page: not the whole page's load).
// B. Ingest: 1000 state updates a second from a Mosquitto bus, from 200 devices cloned from
//    zigbee-herdsman-converters' real definitions, the device stream's publish → browser latency
//    with recording on beside recording off (every device excluded): BENCH_HISTORY_SECONDS
//    (default 60) per mode, in interleaved phases.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import Database from 'better-sqlite3';
import mqtt from 'mqtt';
import { chromium } from 'playwright-core';
import { tsImport } from 'tsx/esm/api';
import {
  cpuMs,
  hubDevices,
  mainThreadCpuMs,
  percentile,
  report,
  signIn,
  sleep,
  startHearth,
  startMosquitto,
  startSubscribers,
} from './lib.mjs';
import { BENCH_TS_EXPOSE, realDevices } from './real-devices.mjs';

const root = path.resolve(import.meta.dirname, '..');
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const YEAR_ROWS = 525_600;
const QUERY_RUNS = 50;
const INGEST_RATE = 1000;
const INGEST_SECONDS = Number(process.env.BENCH_HISTORY_SECONDS ?? 60);
const INGEST_DEVICES = 200;
/** Phases per mode, in the order off on on off, off on on off, … */
const INGEST_SLOTS = 6;
const SUBSCRIBERS = 5;
const BASE = 'zigbee2mqtt';
const P = 'hearth/devicehub';
const admin = { email: 'bench@example.com', password: 'bench-password-1' };

const now = () => performance.timeOrigin + performance.now();
const round = (value) => (Number.isFinite(value) ? Math.round(value * 100) / 100 : value);
const mb = (bytes) => Math.round((bytes / 1024 / 1024) * 100) / 100;
/** The server's TypeScript, loaded as it is (the repository and roll-up that Hearth runs). */
const server = (file) => tsImport(pathToFileURL(path.join(root, 'server/src', file)).href, import.meta.url);

// ---- shared helpers ---------------------------------------------------------------------------

const numeric = (property, unit) => ({ type: 'numeric', name: property, property, access: 1, unit });
const sensor = (i, name) => ({
  ieee_address: `0x00124b00${i.toString(16).padStart(8, '0')}`,
  friendly_name: name,
  type: 'EndDevice',
  supported: true,
  disabled: false,
  interview_completed: true,
  definition: {
    model: 'WSDCGQ11LM',
    vendor: 'Aqara',
    description: 'Temperature and humidity sensor',
    exposes: [
      numeric('temperature', '°C'),
      numeric('humidity', '%'),
      numeric('linkquality', 'lqi'),
      numeric('bench_ts', 'ms'),
    ],
  },
});

async function call(url, token, method = 'GET', body) {
  const response = await fetch(url, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body ? { 'content-type': 'application/json' } : {}),
    },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${url}: ${response.status} ${text}`);
  return JSON.parse(text);
}

/** Bytes the SQLite file's live pages take (free pages not counted), after a WAL checkpoint. */
function liveBytes(file) {
  const db = new Database(file);
  try {
    db.pragma('wal_checkpoint(TRUNCATE)');
    const pages = db.pragma('page_count', { simple: true });
    const free = db.pragma('freelist_count', { simple: true });
    return (pages - free) * db.pragma('page_size', { simple: true });
  } finally {
    db.close();
  }
}

// ---- A: a year of one sensor --------------------------------------------------------------------

async function yearOfOneSensor(mosquitto) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-bench-history-'));
  const file = path.join(dataDir, 'hearth.db');
  const env = {
    MQTT_URL: `mqtt://127.0.0.1:${mosquitto.port}`,
    SIMULATOR: 'off',
    ADMIN_EMAIL: admin.email,
    ADMIN_PASSWORD: admin.password,
  };
  const publisher = await mqtt.connectAsync(`mqtt://127.0.0.1:${mosquitto.port}`, { protocolVersion: 4 });
  try {
    // First start: the device gets its id.
    let hearth = await startHearth(env, { dataDir });
    await publisher.publishAsync(`${BASE}/bridge/devices`, JSON.stringify([sensor(1, 'year_sensor')]), {
      retain: true,
    });
    let token = (await signIn(hearth.url, admin)).access_token;
    const [device] = await hubDevices(hearth.url, token, 1);
    await hearth.stop();

    const { openStorage } = await server('storage/database.ts');
    const { HistoryRepository } = await server('history/history.repository.ts');
    const { HistoryMaintenance } = await server('history/history.maintenance.ts');
    const before = liveBytes(file);
    const storage = openStorage({ sqliteFile: file });
    const repository = new HistoryRepository(storage.db);
    const [series] = await repository.ensureSeries([
      { device_id: device.id, property: 'temperature', type: 'number' },
    ]);
    const end = Math.floor(Date.now() / MINUTE) * MINUTE;
    const start = end - YEAR_ROWS * MINUTE;
    const insertStarted = now();
    for (let i = 0; i < YEAR_ROWS; i += 10_000) {
      const rows = [];
      for (let j = i; j < Math.min(YEAR_ROWS, i + 10_000); j++) {
        const t = start + j * MINUTE;
        const daily = Math.sin((2 * Math.PI * (t % DAY)) / DAY);
        const yearly = Math.sin((2 * Math.PI * (t - start)) / (365 * DAY));
        rows.push({
          series_id: series.id,
          t,
          v: Math.round((19 + 3 * daily + 4 * yearly + Math.random()) * 10) / 10,
        });
      }
      await repository.insertRaw(rows);
    }
    const insertMs = now() - insertStarted;
    await storage.close();
    const rawYear = liveBytes(file) - before;

    // Hearth's roll-up and pruning, in larger steps than the server's background ones.
    const storage2 = openStorage({ sqliteFile: file });
    const repository2 = new HistoryRepository(storage2.db);
    const quiet = { info() {}, warn() {}, error() {} };
    const maintenance = new HistoryMaintenance({
      repository: repository2,
      log: quiet,
      retention: { rawDays: 10, fiveMinuteDays: 90, hourlyDays: undefined },
      intervalMs: 0,
      rawSpanMs: 7 * DAY,
      fiveMinuteSpanMs: 60 * DAY,
      pruneSpanMs: 30 * DAY,
    });
    const rollupStarted = now();
    const steps = await maintenance.runUntilIdle();
    const rollupMs = now() - rollupStarted;
    await storage2.close();
    const retained = liveBytes(file) - before;

    // The API, through the running server.
    hearth = await startHearth(env, { dataDir });
    token = (await signIn(hearth.url, admin)).access_token;
    await hubDevices(hearth.url, token, 1);
    const ranges = [
      ['1 year', 365 * DAY],
      ['30 days', 30 * DAY],
      ['7 days', 7 * DAY],
      ['24 hours', DAY],
      ['6 hours', 6 * HOUR],
    ];
    const rows = [];
    for (const [name, span] of ranges) {
      const to = Date.now();
      const url = `${hearth.url}/api/history?device_id=${device.id}&property=temperature&from=${to - span}&to=${to}&points=1000`;
      let answer;
      for (let i = 0; i < 5; i++) answer = await call(url, token);
      const times = [];
      for (let i = 0; i < QUERY_RUNS; i++) {
        const started = now();
        answer = await call(url, token);
        times.push(now() - started);
      }
      times.sort((a, b) => a - b);
      rows.push({
        range: name,
        resolution: answer.resolution,
        'bucket ms': answer.bucket_ms,
        points: answer.points.length,
        'p50 ms': round(percentile(times, 50)),
        'p95 ms': round(percentile(times, 95)),
        'max ms': round(times[times.length - 1]),
      });
    }
    await hearth.stop();
    return {
      rows,
      storage: {
        'raw rows inserted': YEAR_ROWS,
        'insert rows /s': Math.round((YEAR_ROWS * 1000) / insertMs),
        'roll-up + pruning of the year, s': round(rollupMs / 1000),
        'roll-up steps': steps,
        'MB per device-year, every reading kept (raw only)': mb(rawYear),
        'MB per device-year at the default retention (10 d raw, 90 d 5 min, 1 y hourly)': mb(retained),
      },
    };
  } finally {
    await publisher.endAsync(true).catch(() => {});
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

// ---- B: ingest at 1000 updates/s ----------------------------------------------------------------

async function ingest(mosquitto) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-bench-history-'));
  const file = path.join(dataDir, 'hearth.db');
  const publisher = await mqtt.connectAsync(`mqtt://127.0.0.1:${mosquitto.port}`, { protocolVersion: 4 });
  publisher.stream.setNoDelay?.(true);
  const hearth = await startHearth(
    {
      MQTT_URL: `mqtt://127.0.0.1:${mosquitto.port}`,
      SIMULATOR: 'off',
      ADMIN_EMAIL: admin.email,
      ADMIN_PASSWORD: admin.password,
    },
    { dataDir },
  );
  try {
    const name = (i) => `ingest_${String(i).padStart(4, '0')}`;
    const devices = ingestDevices(name);
    await publisher.publishAsync(`${BASE}/bridge/devices`, JSON.stringify(devices.list), { retain: true });
    const token = (await signIn(hearth.url, admin)).access_token;
    const list = await hubDevices(hearth.url, token, INGEST_DEVICES);
    const setRecording = async (on) => {
      for (const device of list) {
        // bench_ts (the send time, different in every message) is never recorded.
        await call(`${hearth.url}/api/history/exclusions/${device.id}`, token, 'PUT', {
          device: !on,
          properties: ['bench_ts'],
        });
      }
    };
    const wsUrl = `ws://${hearth.url.slice(7)}/ws/devicehub`;
    const results = { off: [], on: [] };
    const recorded = { rows: 0, seconds: 0 };
    let count = 0;
    const phase = async (mode, seconds) => {
      await setRecording(mode === 'on');
      const rowsBefore = rawRows(file);
      const subscribers = await startSubscribers({
        url: wsUrl,
        filter: `${P}/devices/+`,
        password: token,
        count: SUBSCRIBERS,
      });
      const cpuBefore = cpuMs(hearth.pid);
      const mainBefore = mainThreadCpuMs(hearth.pid);
      const started = now();
      let sent = 0;
      while (now() - started < seconds * 1000) {
        const due = Math.floor(((now() - started) * INGEST_RATE) / 1000) - sent;
        for (let i = 0; i < due; i++) {
          const device = count % INGEST_DEVICES;
          publisher.publish(
            `${BASE}/${name(device)}`,
            `${devices.message(device, count)},"bench_ts":${now()}}`,
          );
          count++;
          sent++;
        }
        await sleep(2);
      }
      await sleep(2000);
      const cpu = cpuMs(hearth.pid) - cpuBefore;
      const main = mainThreadCpuMs(hearth.pid) - mainBefore;
      const { received, latencies } = await subscribers.collect();
      if (mode === 'on') {
        recorded.rows += rawRows(file) - rowsBefore;
        recorded.seconds += seconds;
      }
      results[mode].push({ sent, received, latencies, cpu, main });
    };
    // Warm-up, then the modes in short phases in the order off on on off, off on on off, … so
    // that both meet the same machine (its drift and its noise) for the same time.
    await phase('off', 5);
    results.off = [];
    const slot = INGEST_SECONDS / INGEST_SLOTS;
    const order = Array.from({ length: INGEST_SLOTS * 2 }, (_, i) =>
      ((i + 1) >> 1) % 2 === 0 ? 'off' : 'on',
    );
    for (let i = 0; i < order.length; ) {
      let slots = 1;
      while (order[i + slots] === order[i]) slots++;
      await phase(order[i], slot * slots);
      i += slots;
    }

    const rows = ['off', 'on'].map((mode) => {
      const runs = results[mode];
      const latencies = Float64Array.from(runs.flatMap((r) => [...r.latencies])).sort();
      const sent = runs.reduce((a, r) => a + r.sent, 0);
      const received = runs.reduce((a, r) => a + r.received, 0);
      return {
        recording: mode,
        'updates sent': sent,
        'delivered %': Math.round((received / (sent * SUBSCRIBERS)) * 1000) / 10,
        'p50 ms': round(percentile(latencies, 50)),
        'p99 ms': round(percentile(latencies, 99)),
        'max ms': round(latencies[latencies.length - 1]),
        'p99 ms by phase': runs
          .map((r) => round(percentile(Float64Array.from(r.latencies).sort(), 99)))
          .join(' '),
        'server CPU ms per 1000 updates': round((runs.reduce((a, r) => a + r.cpu, 0) * 1000) / sent),
        'of which main thread': round((runs.reduce((a, r) => a + r.main, 0) * 1000) / sent),
        'readings recorded /s': mode === 'on' ? Math.round(recorded.rows / recorded.seconds) : 0,
      };
    });
    return rows;
  } finally {
    await publisher.endAsync(true).catch(() => {});
    await hearth.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/**
 * The ingest's devices, cloned from real lights, plugs and sensors (real-devices.mjs), and their
 * messages: Zigbee2MQTT sends a device's whole state every time, in which, from one message to
 * the next, its link quality and one reading change (a sensor's temperature, a plug's power, a
 * light's brightness) and the rest repeats, as on a real network.
 */
function ingestDevices(name) {
  const real = realDevices(INGEST_DEVICES, { name, extraExposes: [BENCH_TS_EXPOSE] });
  const texts = Array.from({ length: INGEST_DEVICES }, (_, i) => {
    const first = real.state(i, 0);
    const second = real.state(i, 1);
    const reading = Object.keys(first).find(
      (key) =>
        key !== 'linkquality' &&
        key !== 'bench_ts' &&
        typeof first[key] === 'number' &&
        first[key] !== second[key],
    );
    const changed = { ...first, linkquality: (first.linkquality + 1) % 256 };
    if (reading) changed[reading] = second[reading];
    return [first, changed].map((state) => JSON.stringify(state).slice(0, -1));
  });
  return {
    list: real.list,
    message: (device, count) => texts[device][Math.floor(count / INGEST_DEVICES) % 2],
  };
}

function rawRows(file) {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    return db.prepare('select count(*) as n from history_raw').get().n;
  } finally {
    db.close();
  }
}

// ---- C: the chart's first draw ---------------------------------------------------------------

async function chartDraw() {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu'],
  });
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.setContent('<div id="chart" style="width:1200px"></div>');
    await page.addScriptTag({ path: path.join(root, 'node_modules/uplot/dist/uPlot.iife.min.js') });
    const times = [];
    for (let run = 0; run < 12; run++) {
      const ms = await page.evaluate(async (points) => {
        const x = [];
        const y = [];
        const lo = [];
        const hi = [];
        const start = Date.now() / 1000 - points * 60;
        for (let i = 0; i < points; i++) {
          x.push(start + i * 60);
          const v = 20 + 5 * Math.sin(i / 200) + Math.random();
          // A gap every 2000 points.
          y.push(i % 2000 === 1999 ? null : v);
          lo.push(v - 1);
          hi.push(v + 1);
        }
        const target = document.getElementById('chart');
        target.innerHTML = '';
        const started = performance.now();
        // biome-ignore lint/correctness/noUndeclaredVariables: uPlot is the page's global (its script tag), not Node's.
        const chart = new uPlot(
          {
            width: 1200,
            height: 220,
            series: [
              {},
              { stroke: '#d97706', width: 2 },
              { stroke: '#888', dash: [4, 4] },
              { stroke: '#888', dash: [4, 4] },
            ],
            bands: [{ series: [3, 2], fill: '#d9770622' }],
            scales: { x: { time: true } },
            cursor: { drag: { x: true, y: false } },
          },
          [x, y, lo, hi],
          target,
        );
        // uPlot draws its canvas in a microtask after construction.
        await new Promise((resolve) => setTimeout(resolve, 0));
        const drawn = performance.now() - started;
        // …and the browser shows it with the next frame.
        await new Promise((resolve) => requestAnimationFrame(resolve));
        const framed = performance.now() - started;
        chart.destroy();
        return [drawn, framed];
      }, 10_000);
      if (run >= 2) times.push(ms);
    }
    const drawn = times.map(([d]) => d).sort((a, b) => a - b);
    const framed = times.map(([, f]) => f).sort((a, b) => a - b);
    return {
      points: 10_000,
      'p50 ms': round(percentile(drawn, 50)),
      'max ms': round(drawn[drawn.length - 1]),
      'p50 ms to the next frame': round(percentile(framed, 50)),
    };
  } finally {
    await browser.close();
  }
}

async function main() {
  const mosquitto = await startMosquitto({ settings: ['set_tcp_nodelay true'] });
  try {
    const only = process.env.BENCH_HISTORY_PART;
    // BENCH_HISTORY_PART=year|chart|ingest runs one part only.
    const year = only && only !== 'year' ? undefined : await yearOfOneSensor(mosquitto);
    if (year) {
      console.log('\nA year of one sensor (SQLite):');
      console.table([year.storage]);
      console.table(year.rows);
    }
    const chart = only && only !== 'chart' ? undefined : await chartDraw();
    if (chart) {
      console.log('\nChart first draw (uPlot in Chromium):');
      console.table([chart]);
    }
    const streamRows = only && only !== 'ingest' ? [] : await ingest(mosquitto);
    const at = (range) => year?.rows.find((r) => r.range === range);
    const [off, on] = streamRows;
    const targetsMet = {
      ...(year
        ? {
            '1-year answer p50 <= 50 ms': at('1 year')['p50 ms'] <= 50,
            '24 h answer p50 <= 20 ms': at('24 hours')['p50 ms'] <= 20,
          }
        : {}),
      ...(chart ? { 'chart first draw p50 <= 100 ms (10 000 points)': chart['p50 ms'] <= 100 } : {}),
      ...(on ? { 'stream p99 with recording <= 1.1 x without': on['p99 ms'] <= 1.1 * off['p99 ms'] } : {}),
    };
    console.log('\nStream at 1000 updates/s, recording off and on:');
    report('history', streamRows, {
      year: year ?? null,
      chart: chart ?? null,
      ingest: {
        rate: INGEST_RATE,
        secondsPerMode: INGEST_SECONDS,
        devices: INGEST_DEVICES,
        subscribers: SUBSCRIBERS,
      },
      targetsMet,
    });
    console.table(targetsMet);
  } finally {
    await mosquitto.stop();
  }
}

await main();

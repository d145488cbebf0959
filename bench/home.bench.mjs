// Home with favourites (issue 14): a resident with 12 starred devices among 2000 in 40 rooms opens
// `/` cold in headless Chromium. Measures the time from navigation to the first live favourite card
// (target ≤ 0.5 s), to all 12 cards and to every room card, and where that time goes (the requests
// the cards wait for). Each run is a fresh browser context (nothing cached). Two device modes, each
// on a fresh Hearth: "simulator" (the simulator's devices) and "real" (devices cloned from real
// definitions of zigbee-herdsman-converters, published as Zigbee2MQTT does, from this script);
// BENCH_MODES=real runs one.
import { mkdirSync } from 'node:fs';
import mqtt from 'mqtt';
import { chromium } from 'playwright-core';
import {
  api,
  freePort,
  hubDevices,
  percentile,
  report,
  sideBySide,
  signUpBench,
  startHearth,
} from './lib.mjs';
import { publishFleet, realDevices } from './real-devices.mjs';

const DEVICES = Number(process.env.BENCH_DEVICES ?? 2000);
const ROOMS = Number(process.env.BENCH_ROOMS ?? 40);
const FAVOURITES = Number(process.env.BENCH_FAVOURITES ?? 12);
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const MODES = (process.env.BENCH_MODES ?? 'simulator,real').split(',');
const BUS_LOGIN = { MQTT_LISTEN_USERNAME: 'zigbee2mqtt', MQTT_LISTEN_PASSWORD: 'bench-bus-password' };

// The modes side by side; `ok` judges the real mode when it ran.
const { results, rows } = await sideBySide(MODES, runMode);
report('home', rows, {
  devices: DEVICES,
  rooms: ROOMS,
  favourites: FAVOURITES,
  runs: RUNS,
  samples: Object.fromEntries(MODES.map((mode) => [mode, results[mode].samples])),
});

async function runMode(mode) {
  const mqttPort = await freePort();
  const hearth = await startHearth({
    ...(mode === 'real' ? { SIMULATOR: 'off' } : { SIMULATOR: 'on', SIMULATOR_DEVICES: String(DEVICES) }),
    MQTT_LISTEN_PORT: String(mqttPort),
    ...BUS_LOGIN,
  });
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-timer-throttling'],
  });
  const bus =
    mode === 'real'
      ? await mqtt.connectAsync(`mqtt://127.0.0.1:${mqttPort}`, {
          protocolVersion: 4,
          username: BUS_LOGIN.MQTT_LISTEN_USERNAME,
          password: BUS_LOGIN.MQTT_LISTEN_PASSWORD,
        })
      : null;
  if (bus) {
    const name = (i) => `Bench device ${String(i + 1).padStart(4, '0')}`;
    await publishFleet(bus, 'zigbee2mqtt', realDevices(DEVICES, { name }));
  }
  try {
    const json = (method, route, body, token) => api(hearth.url, method, route, body, token);
    const login = await signUpBench(hearth.url);
    const { access_token: token } = await login();

    const devices = await hubDevices(hearth.url, token, DEVICES, 30);

    // 40 rooms, the devices dealt among them; 12 favourites spread over the whole list (most of
    // them beyond the first screen the Devices page fetches first).
    for (let room = 0; room < ROOMS; room++) {
      const created = await json('POST', '/api/rooms', { name: `Room ${room + 1}` }, token);
      if (created.status !== 201) throw new Error(`POST /api/rooms answered ${created.status}`);
      const ids = devices.filter((_device, index) => index % ROOMS === room).map((device) => device.id);
      const assigned = await json('PUT', `/api/rooms/${created.data.id}/devices`, { device_ids: ids }, token);
      if (assigned.status !== 200) throw new Error(`PUT /api/rooms/…/devices answered ${assigned.status}`);
    }
    const step = Math.floor(devices.length / FAVOURITES);
    const favourites = Array.from({ length: FAVOURITES }, (_unused, i) => devices[i * step + step - 1].id);
    const starred = await json('PUT', '/api/favourites', { device_ids: favourites }, token);
    if (starred.status !== 200) throw new Error(`PUT /api/favourites answered ${starred.status}`);

    const samples = [];
    for (let run = 0; run < RUNS; run++) {
      const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
      const page = await context.newPage();
      await page.goto(hearth.url);
      await page.evaluate(
        (refresh) => localStorage.setItem('refreshToken', refresh),
        (await login()).refresh_token,
      );
      await page.addInitScript(() => {
        const probe = { firstCard: null, allCards: null, rooms: null };
        window.__probe = probe;
        const start = () => {
          new MutationObserver(() => {
            const cards = document.querySelectorAll('article.favourite-card').length;
            if (probe.firstCard === null && cards > 0) probe.firstCard = performance.now();
            if (probe.allCards === null && cards >= window.__wanted) probe.allCards = performance.now();
            if (
              probe.rooms === null &&
              document.querySelectorAll('article.room-card').length >= window.__rooms
            )
              probe.rooms = performance.now();
          }).observe(document.body, { subtree: true, childList: true });
        };
        if (document.body) start();
        else document.addEventListener('DOMContentLoaded', start);
      });
      await page.addInitScript(
        ({ wanted, rooms }) => {
          window.__wanted = wanted;
          window.__rooms = rooms;
        },
        { wanted: FAVOURITES, rooms: ROOMS },
      );
      // BENCH_PAGE_TRACE=dir: Chromium's trace of the first run, to read where the time goes.
      const traceDir = run === 0 ? process.env.BENCH_PAGE_TRACE : undefined;
      if (traceDir) {
        mkdirSync(traceDir, { recursive: true });
        await browser.startTracing(page, { path: `${traceDir}/home.json` });
      }
      await page.goto(hearth.url);
      await page
        .locator('article.favourite-card')
        .nth(FAVOURITES - 1)
        .waitFor({ timeout: 30_000 });
      await page
        .locator('article.room-card')
        .nth(ROOMS - 1)
        .waitFor({ timeout: 30_000 });
      if (traceDir) await browser.stopTracing();
      const probe = await page.evaluate(() => window.__probe);
      if (process.env.MARKS)
        console.log(
          'MARKS',
          JSON.stringify(
            await page.evaluate(() =>
              Object.fromEntries(
                performance.getEntriesByType('mark').map((m) => [m.name, Math.round(m.startTime)]),
              ),
            ),
          ),
          'first card',
          Math.round(probe.firstCard),
          'rooms',
          Math.round(probe.rooms),
        );
      const steps = await page.evaluate(() =>
        performance
          .getEntriesByType('resource')
          .filter((entry) =>
            /api\/auth\/(refresh|me)|api\/devicehub\/devices|api\/rooms|api\/favourites|HomeLive|config/.test(
              entry.name,
            ),
          )
          .map((entry) => ({
            request: (new URL(entry.name).pathname + new URL(entry.name).search).slice(0, 48),
            startMs: Math.round(entry.startTime),
            doneMs: Math.round(entry.responseEnd),
            kB: Math.round(entry.decodedBodySize / 1024),
          })),
      );
      if (run === 0) console.table(steps);
      // The app's own start (bundle, session refresh) is the Devices page's too: the part the home
      // page's design decides starts once the session is known.
      const me = steps.find((step) => step.request.startsWith('/api/auth/me'));
      samples.push({ ...probe, afterSession: me ? probe.firstCard - me.doneMs : Number.NaN });
      await context.close();
    }

    const sorted = (key) => samples.map((sample) => sample[key]).sort((a, b) => a - b);
    const round = (value) => Math.round(value);
    const first = sorted('firstCard');
    const rows = [
      {
        metric: `first live card, ${FAVOURITES} favourites of ${DEVICES} devices (ms, p50)`,
        value: round(percentile(first, 50)),
        target: '≤ 500',
        ok: percentile(first, 50) <= 500,
      },
      { metric: 'first live card, worst run (ms)', value: round(first.at(-1)), target: '', ok: true },
      {
        metric: 'of which after the session is known (ms, p50)',
        value: round(percentile(sorted('afterSession'), 50)),
        target: '',
        ok: true,
      },
      {
        metric: `all ${FAVOURITES} cards (ms, p50)`,
        value: round(percentile(sorted('allCards'), 50)),
        target: '',
        ok: true,
      },
      {
        metric: `all ${ROOMS} room cards (ms, p50)`,
        value: round(percentile(sorted('rooms'), 50)),
        target: '',
        ok: true,
      },
    ];
    return { rows, samples };
  } finally {
    await bus?.endAsync().catch(() => {});
    await browser.close();
    await hearth.stop();
  }
}

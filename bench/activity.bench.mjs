// Activity log (docs/activity.md): 100 000 entries stored through Hearth's own repository, then
// through the running server (SQLite, the default install):
//   - the CSV export of all of them (target ≤ 2 s), streamed, timed to the last byte;
//   - GET /api/activity's first page;
//   - the Activity page's first entries in Debian's Chromium (target ≤ 300 ms): from a click on
//     the sidebar entry of an app already open (home has loaded: no request for 500 ms), from a
//     click the moment the entry shows (home still starting its device stream), and from a cold
//     load of /activity.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { tsImport } from 'tsx/esm/api';
import { percentile, report, signIn, startHearth } from './lib.mjs';

const root = path.resolve(import.meta.dirname, '..');
const ENTRIES = Number(process.env.BENCH_ACTIVITY_ENTRIES ?? 100_000);
const EXPORT_RUNS = 5;
const API_RUNS = 30;
const PAGE_RUNS = 10;
const admin = { email: 'bench@example.com', password: 'bench-password-1' };
const server = (file) => tsImport(pathToFileURL(path.join(root, 'server/src', file)).href, import.meta.url);
const now = () => performance.timeOrigin + performance.now();
const round = (value) => Math.round(value * 10) / 10;
const median = (values) =>
  percentile(
    [...values].sort((a, b) => a - b),
    50,
  );

/** 100 000 entries over the last 30 days: commands, renames, sign-ins and device events. */
async function seed(file) {
  const { openStorage } = await server('storage/database.ts');
  const { ActivityRepository } = await server('activity/activity.repository.ts');
  const { toRow } = await server('activity/activity.writer.ts');
  const storage = openStorage({ sqliteFile: file });
  const repository = new ActivityRepository(storage.db);
  const end = Date.now() - 60_000;
  const step = Math.floor((30 * 86_400_000) / ENTRIES);
  const started = now();
  for (let i = 0; i < ENTRIES; i += 5000) {
    const rows = [];
    for (let n = i; n < Math.min(ENTRIES, i + 5000); n++) {
      const kind = ['device.command', 'device.command', 'device.rename', 'sign_in', 'device.offline'][n % 5];
      rows.push(
        toRow(
          {
            actor:
              kind === 'device.offline'
                ? { type: 'system', label: 'Hearth' }
                : { type: 'user', id: `user-${n % 7}`, label: `Person ${n % 7}` },
            kind,
            result: n % 23 === 0 ? 'refused' : 'ok',
            ip: '192.0.2.10',
            client: 'Mozilla/5.0 (X11; Linux x86_64) Chrome/140.0 Safari/537.36',
            ...(kind.startsWith('device')
              ? { device_id: `device-${n % 200}`, room_id: `room-${n % 12}` }
              : {}),
            detail:
              kind === 'sign_in'
                ? { email: `person${n % 7}@example.com`, step: 'password' }
                : { name: `Device ${n % 200}`, state: { on: n % 2 === 0, brightness: n % 254 } },
            at: end - (ENTRIES - n) * step,
          },
          Date.now(),
        ),
      );
    }
    await repository.append(rows);
  }
  const seedMs = now() - started;
  await storage.close();
  return seedMs;
}

async function exportOnce(url, token) {
  const started = now();
  const response = await fetch(`${url}/api/activity/export`, {
    headers: { authorization: `Bearer ${token}` },
  });
  let firstByteMs;
  let bytes = 0;
  let lines = 0;
  for await (const chunk of response.body) {
    firstByteMs ??= now() - started;
    bytes += chunk.length;
    for (const byte of chunk) if (byte === 10) lines++;
  }
  return { ms: now() - started, firstByteMs, bytes, rows: lines - 1 };
}

async function pageTimes(url, refreshToken) {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu'],
  });
  const click = [];
  const early = [];
  const cold = [];
  try {
    for (let run = 0; run < PAGE_RUNS; run++) {
      // Wide enough for the sidebar to stay open (below 1400 px it is an overlay).
      const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
      await page.goto(url);
      await page.evaluate((token) => localStorage.setItem('refreshToken', token.refresh), {
        refresh: refreshToken,
      });
      // From the sidebar the moment it shows, while home still starts its device stream.
      await page.goto(`${url}/`);
      const link = page.getByRole('link', { name: 'Activity' });
      await link.waitFor();
      let started = now();
      await link.click();
      await page.locator('.activity-entry').first().waitFor();
      early.push(now() - started);
      // From the sidebar of an app already open (the page's code loads on the click).
      await page.goto(`${url}/`);
      await link.waitFor();
      await page.waitForLoadState('networkidle');
      started = now();
      await link.click();
      await page.locator('.activity-entry').first().waitFor();
      click.push(now() - started);
      // A cold load of /activity (the whole app, the session refresh, then the entries).
      await page.goto(`${url}/`);
      await link.waitFor();
      started = now();
      await page.goto(`${url}/activity`);
      await page.locator('.activity-entry').first().waitFor();
      cold.push(now() - started);
      // The refresh token turns over on each load: keep the newest for the next run.
      refreshToken = await page.evaluate(() => localStorage.getItem('refreshToken'));
      await page.close();
    }
  } finally {
    await browser.close();
  }
  return { click, early, cold };
}

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-bench-activity-'));
const env = { SIMULATOR: 'off', ADMIN_EMAIL: admin.email, ADMIN_PASSWORD: admin.password };
try {
  // First start: the schema and the administrator.
  let hearth = await startHearth(env, { dataDir });
  await hearth.stop();
  const seedMs = await seed(path.join(dataDir, 'hearth.db'));

  hearth = await startHearth(env, { dataDir });
  try {
    const tokens = await signIn(hearth.url, admin);
    const exports = [];
    for (let run = 0; run < EXPORT_RUNS; run++)
      exports.push(await exportOnce(hearth.url, tokens.access_token));
    if (exports[0].rows < ENTRIES) throw new Error(`the export had ${exports[0].rows} rows, not ${ENTRIES}`);

    const api = [];
    for (let run = 0; run < API_RUNS; run++) {
      const started = now();
      const response = await fetch(`${hearth.url}/api/activity`, {
        headers: { authorization: `Bearer ${tokens.access_token}` },
      });
      const body = await response.json();
      if (body.entries.length !== 100) throw new Error('the first page is not 100 entries');
      api.push(now() - started);
    }
    const filtered = [];
    for (let run = 0; run < API_RUNS; run++) {
      const started = now();
      await (
        await fetch(`${hearth.url}/api/activity?device_id=device-7&kind=device.command`, {
          headers: { authorization: `Bearer ${tokens.access_token}` },
        })
      ).json();
      filtered.push(now() - started);
    }

    const { click, early, cold } = await pageTimes(hearth.url, tokens.refresh_token);
    const ms = exports.map((e) => e.ms);
    report(
      'activity',
      [
        {
          measure: `CSV export of ${ENTRIES} entries (ms, to the last byte)`,
          p50: round(median(ms)),
          max: round(Math.max(...ms)),
          target: 2000,
        },
        {
          measure: 'CSV export: first byte (ms)',
          p50: round(median(exports.map((e) => e.firstByteMs))),
          max: '',
          target: '',
        },
        {
          measure: 'GET /api/activity first page (ms)',
          p50: round(median(api)),
          max: round(Math.max(...api)),
          target: '',
        },
        {
          measure: 'GET /api/activity?device_id=&kind= (ms)',
          p50: round(median(filtered)),
          max: round(Math.max(...filtered)),
          target: '',
        },
        {
          measure: 'page: first entries after the sidebar click (ms)',
          p50: round(median(click)),
          max: round(Math.max(...click)),
          target: 300,
        },
        {
          measure: 'page: the same, clicked while home still loads (ms)',
          p50: round(median(early)),
          max: round(Math.max(...early)),
          target: '',
        },
        {
          measure: 'page: first entries after a cold load of /activity (ms)',
          p50: round(median(cold)),
          max: round(Math.max(...cold)),
          target: '',
        },
      ],
      {
        entries: ENTRIES,
        exportBytes: exports[0].bytes,
        seedMs: round(seedMs),
        databaseMb: round(fs.statSync(path.join(dataDir, 'hearth.db')).size / 1024 / 1024),
      },
    );
  } finally {
    await hearth.stop();
  }
} finally {
  fs.rmSync(dataDir, { recursive: true, force: true });
}

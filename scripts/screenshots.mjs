// `npm run screenshots`: docs/screens/*.png, the look of the main screens at 1440 and 390 px in
// both themes (issue 34, acceptance 4). It starts the built server (`npm run build` first) with
// the simulator on a fresh data directory, seeds a household through the API (an admin, rooms,
// favourites, a few commands), and photographs each screen in Debian's Chromium.
//   npm run screenshots              every screen
//   npm run screenshots -- home      only the screens whose name contains "home"
// SCREENS_DIR writes them elsewhere, FULL_PAGE=1 photographs whole pages, SCREENS_WAIT_MS sets how
// long the simulator reports before the first photograph (20 s).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';

const root = path.resolve(import.meta.dirname, '..');
const out = process.env.SCREENS_DIR ?? path.join(root, 'docs/screens');
const serverEntry = path.join(root, 'server/dist/main.js');
const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const only = process.argv[2];

const WIDTHS = [
  { width: 1440, height: 900 },
  { width: 390, height: 844 },
];
const THEMES = ['light', 'dark'];
const ADMIN = {
  first_name: 'Ada',
  last_name: 'Lovelace',
  user_name: 'ada',
  email: 'ada@example.test',
  password: 'Hearth-screens-9731',
};
/** Rooms of the simulator's household, and which of its devices go in each. */
const ROOMS = [
  {
    name: 'Living room',
    icon: 'sofa',
    devices: ['Living room lamp', 'Living room thermostat', 'Living room air quality'],
  },
  {
    name: 'Kitchen',
    icon: 'cooking-pot',
    devices: ['Kitchen LED strip', 'Coffee machine plug', 'Kitchen leak sensor'],
  },
  {
    name: 'Bedroom',
    icon: 'bed-double',
    devices: ['Bedroom ceiling light', 'Bedroom climate', 'Bedroom blind'],
  },
  {
    name: 'Hallway',
    icon: 'door-open',
    devices: ['Hallway lamp', 'Hallway motion', 'Front door', 'Front door lock'],
  },
];
const FAVOURITES = ['Living room lamp', 'Bedroom climate', 'Front door lock', 'Bedroom blind'];
/** The device whose history and tile details are photographed. */
const DETAILED = 'Bedroom climate';

const freePort = () =>
  new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });

async function startServer() {
  if (!fs.existsSync(serverEntry)) throw new Error(`${serverEntry} is missing: run "npm run build" first`);
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-screens-'));
  const child = spawn(process.execPath, [serverEntry], {
    env: {
      PATH: process.env.PATH,
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      SIMULATOR: 'on',
      AUTH_RATE_LIMIT: '0',
      SIGNUP_RATE_LIMIT: '0',
      PORT: String(port),
      DATA_DIR: dataDir,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise((resolve) => child.once('exit', resolve));
  await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start in 30 s:\n${output}`)), 30_000);
    const collect = (chunk) => {
      output += chunk;
      if (output.includes('Hearth is ready')) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout.on('data', collect);
    child.stderr.on('data', (chunk) => (output += chunk));
    exited.then((code) => reject(new Error(`server exited with ${code}:\n${output}`)));
  });
  return {
    url: `http://localhost:${port}`,
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Waits until `read()` gives something `check` accepts (every 200 ms, up to `ms`). */
async function until(read, check, what, ms = 30_000) {
  const end = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (check(value)) return value;
    if (Date.now() > end) throw new Error(`gave up waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

async function seed(base) {
  const call = async (method, route, body, token) => {
    const response = await fetch(`${base}${route}`, {
      method,
      headers: {
        ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
        ...(token ? { Authorization: `Bearer ${token}` } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const data = await response.json().catch(() => ({}));
    if (!response.ok)
      throw new Error(`${method} ${route} answered ${response.status}: ${JSON.stringify(data)}`);
    return data;
  };
  await call('POST', '/api/auth/signup', ADMIN);
  const login = await call('POST', '/api/auth/login/start', { email: ADMIN.email, password: ADMIN.password });
  const token = login.access_token;
  const devices = await until(
    () => call('GET', '/api/devicehub/devices', undefined, token),
    (list) => FAVOURITES.every((name) => list.some((device) => device.name === name)),
    'the simulated devices',
  );
  const idOf = (name) => devices.find((device) => device.name === name).id;
  for (const room of ROOMS) {
    const created = await call('POST', '/api/rooms', { name: room.name, icon: room.icon }, token);
    await call('PUT', `/api/rooms/${created.id}/devices`, { device_ids: room.devices.map(idOf) }, token);
  }
  await call('PUT', '/api/favourites', { device_ids: FAVOURITES.map(idOf) }, token);
  // A few commands, so that the activity page and the history have something to show.
  for (const [name, state] of [
    ['Living room lamp', { on: true }],
    ['Hallway lamp', { on: false }],
    ['Kitchen LED strip', { on: true }],
  ]) {
    await call('POST', `/api/devicehub/devices/${idOf(name)}/commands`, { state }, token);
  }
  return { idOf, refreshToken: login.refresh_token };
}

/**
 * One browser context per width and theme, signed in as the admin: the first spends the refresh
 * token of the seeding sign-in, each later one the token the previous context's app last stored,
 * so the whole run signs in once (the Activity page shows the seeding, not a column of sign-ins).
 */
async function signedInContext(browser, base, viewport, colorScheme, refreshToken) {
  const context = await browser.newContext({ viewport, colorScheme, reducedMotion: 'reduce' });
  const page = await context.newPage();
  await page.goto(base);
  await page.evaluate((refresh) => localStorage.setItem('refreshToken', refresh), refreshToken);
  return { context, page };
}

/** Each screen: where it is, what marks it ready, and what to do before the photograph. */
const SCREENS = (idOf) => [
  {
    name: 'home',
    route: '/',
    ready: (page) => page.locator('article.room-card').first().waitFor(),
  },
  {
    name: 'devices',
    route: '/devices',
    ready: (page) => page.locator('article.device-tile').first().waitFor(),
  },
  {
    name: 'tile-details',
    route: `/devices?q=${encodeURIComponent(DETAILED)}`,
    ready: async (page) => {
      const tile = page.locator('article.device-tile').first();
      await tile.waitFor();
      // All of the tile: its "Details" part (diagnostics) opened, nothing held back behind "Show N more".
      const details = tile.getByRole('button', { name: /^Details/ });
      if (await details.count()) await details.first().click();
      for (const more of await tile.getByRole('button', { name: /^Show \d+ more$/ }).all())
        await more.click();
      await tile.scrollIntoViewIfNeeded();
    },
  },
  {
    name: 'activity',
    route: '/activity',
    ready: (page) => page.locator('li.activity-entry').first().waitFor(),
  },
  {
    name: 'history',
    route: `/devices/${encodeURIComponent(idOf(DETAILED))}`,
    ready: (page) => page.locator('.history-chart .uplot').first().waitFor(),
  },
];

const server = await startServer();
let browser;
try {
  const { idOf, refreshToken } = await seed(server.url);
  // Let the simulator report for a while, so the history has a line to draw.
  await new Promise((resolve) => setTimeout(resolve, Number(process.env.SCREENS_WAIT_MS ?? 20_000)));
  browser = await chromium.launch({
    executablePath: chromiumPath,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run'],
  });
  fs.mkdirSync(out, { recursive: true });
  let refresh = refreshToken;
  for (const viewport of WIDTHS) {
    for (const theme of THEMES) {
      const { context, page } = await signedInContext(browser, server.url, viewport, theme, refresh);
      for (const screen of SCREENS(idOf)) {
        if (only && !screen.name.includes(only)) continue;
        await page.goto(`${server.url}${screen.route}`);
        await page.getByRole('button', { name: `Account menu for ${ADMIN.user_name}` }).waitFor();
        await screen.ready(page);
        // Fonts, and the last frame of anything still settling.
        await page.evaluate(() => document.fonts.ready);
        await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => resolve())));
        const file = path.join(out, `${screen.name}-${viewport.width}-${theme}.png`);
        await page.screenshot({ path: file, fullPage: process.env.FULL_PAGE === '1' });
        console.log(path.relative(root, file));
      }
      refresh = await page.evaluate(() => localStorage.getItem('refreshToken'));
      await context.close();
    }
  }
} finally {
  await browser?.close();
  await server.stop();
}

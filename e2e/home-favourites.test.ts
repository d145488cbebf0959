import fs from 'node:fs';
import path from 'node:path';
import type mqtt from 'mqtt';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../server/test/wait.js';
import { seriousA11yViolations } from './support/axe.js';
import { artifactsDir, closePages } from './support/browser.js';
import { type HubDevice, hubDevices } from './support/devices.page.js';
import { type BusMessage, watchBus } from './support/server.js';
import { type Account, ADA, apiCall, gotoWithToken, logIn, signUp } from './support/settings.page.js';
import { useE2e } from './support/suite.js';

const THEMES = ['light', 'dark'] as const;

/** docs/screens.md#favourites-and-rooms against the simulator: favourites and room cards on home. */
describe('home favourites and rooms in Chromium', () => {
  // Its devices stay online: "All off" counts on both lamps taking their command (the simulator
  // otherwise drops one off the network now and then, which the summary would name).
  const suite = useE2e({ bus: true, env: { SIMULATOR: 'on', SIMULATOR_DROPOUTS: 'off' } });
  let bus: mqtt.MqttClient;
  let admin: Account;
  let plain: Account;
  let devices: HubDevice[];
  const sent: BusMessage[] = [];
  const pages: Page[] = [];

  const api = async <T>(method: string, route: string, body?: unknown) => {
    const { accessToken } = await logIn(suite.server.url, admin.email, admin.password);
    return apiCall<T>(suite.server.url, method, route, body, accessToken);
  };
  const idOf = (name: string) => {
    const device = devices.find((candidate) => candidate.name === name);
    if (!device) throw new Error(`no device named ${name}`);
    return device.id;
  };
  const setsFor = (name: string) =>
    sent.filter((message) => message.topic === `zigbee2mqtt/${name}/set`).map((message) => message.payload);

  /** Home, signed in, in its own browser context (its own storage: another browser of the person). */
  async function openHome(
    account: Account,
    options: { viewport?: { width: number; height: number }; colorScheme?: 'light' | 'dark' } = {},
  ) {
    const { refreshToken } = await logIn(suite.server.url, account.email, account.password);
    const context = await suite.browser.newContext({
      viewport: options.viewport ?? { width: 1280, height: 900 },
      colorScheme: options.colorScheme ?? 'light',
    });
    const page = await context.newPage();
    pages.push(page);
    const errors: string[] = [];
    const sockets: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    page.on('websocket', (socket) => sockets.push(socket.url()));
    await gotoWithToken(page, suite.server.url, refreshToken);
    await page.getByRole('button', { name: `Account menu for ${account.user_name}` }).waitFor();
    return { page, errors, sockets };
  }
  const favourites = (page: Page) => page.getByRole('region', { name: 'Favourites' });
  const card = (page: Page, name: string): Locator =>
    favourites(page).locator(`article[aria-label="${name}"]`);
  const cardNames = (page: Page) =>
    favourites(page)
      .locator('article.favourite-card')
      .evaluateAll((cards) => cards.map((item) => item.getAttribute('aria-label')));
  const roomCard = (page: Page, name: string) =>
    page.getByRole('region', { name: 'Rooms' }).locator(`article[aria-label="${name}"]`);
  const saved = async () => (await api<{ device_ids: string[] }>('GET', '/api/favourites')).data.device_ids;

  beforeAll(async () => {
    admin = await signUp(suite.server.url, ADA);
    plain = await signUp(suite.server.url, { first_name: 'Uma', last_name: 'Plain', user_name: 'uma' });
    bus = await watchBus(suite.server.busUrl, ['zigbee2mqtt/+/set', 'zigbee2mqtt/Bedroom climate'], sent);
    devices = await eventually(
      () => hubDevices(suite.server.url, admin),
      (list) =>
        ['Living room lamp', 'Hallway lamp', 'Bedroom climate', 'Front door'].every((name) =>
          list.some((device) => device.name === name),
        ),
    );
    fs.mkdirSync(artifactsDir, { recursive: true });
  });
  afterAll(async () => {
    await closePages(pages);
    await bus?.endAsync();
  });

  it('without favourites or rooms keeps the tiles and adds one hint to the Devices page', async () => {
    const { page, errors } = await openHome(admin);
    const hint = page.getByText(
      /Star devices and sort them into rooms on the Devices page to see them here\./,
    );
    await hint.waitFor();
    expect(await hint.getByRole('link', { name: 'Devices page' }).getAttribute('href')).toBe('/devices');
    expect(await page.getByRole('region', { name: 'Favourites' }).count()).toBe(0);
    await page.getByRole('switch', { name: 'Living Room Lamp power' }).waitFor();
    expect(errors).toEqual([]);
  });

  it('shows starred devices as live cards in the favourites order, with their rooms', async () => {
    const living = await api<{ id: string }>('POST', '/api/rooms', { name: 'Living room', icon: 'sofa' });
    const bedroom = await api<{ id: string }>('POST', '/api/rooms', { name: 'Bedroom', icon: 'bed-double' });
    expect([living.status, bedroom.status]).toEqual([201, 201]);
    await api('PUT', `/api/rooms/${living.data.id}/devices`, {
      device_ids: [idOf('Living room lamp'), idOf('Hallway lamp')],
    });
    await api('PUT', `/api/rooms/${bedroom.data.id}/devices`, { device_ids: [idOf('Bedroom climate')] });
    const starred = ['Bedroom climate', 'Living room lamp', 'Front door'];
    expect((await api('PUT', '/api/favourites', { device_ids: starred.map(idOf) })).status).toBe(200);

    const { page, errors, sockets } = await openHome(admin);
    await card(page, 'Front door').waitFor();
    expect(await cardNames(page)).toEqual(starred);
    // Its name starts with its room: the room is not repeated under it (issue 34); Front door's is.
    expect(await card(page, 'Living room lamp').locator('.favourite-card-room').count()).toBe(0);
    expect(await card(page, 'Front door').locator('.favourite-card-room').textContent()).toContain(
      'Unassigned',
    );
    await card(page, 'Living room lamp').getByRole('switch', { name: 'Power Living room lamp' }).waitFor();
    expect(await card(page, 'Front door').locator('.favourite-card-value').textContent()).toMatch(
      /^Contact: (Open|Closed)$/,
    );
    // The sections come before SPEC's tiles.
    const order = await page.locator('main h2').allTextContents();
    expect(order.slice(0, 2)).toEqual(['Favourites', 'Rooms']);

    // A state Zigbee2MQTT reports reaches the card and the room card over the stream. The simulator
    // reports this sensor too, every few seconds with values of its own (its reports carry
    // `last_seen`, ours do not), and can replace ours before the page draws it: the bus says when,
    // and then ours is reported again.
    const climateTopic = 'zigbee2mqtt/Bedroom climate';
    /** The simulator's next report of the sensor, heard on the bus; `stop` stops listening. */
    const simulatorReport = () => {
      let stop = () => {};
      const reported = new Promise<'replaced'>((resolve) => {
        const listener = (topic: string, payload: Buffer) => {
          if (topic === climateTopic && payload.toString().includes('"last_seen"')) resolve('replaced');
        };
        bus.on('message', listener);
        stop = () => bus.off('message', listener);
      });
      return { reported, stop };
    };
    const cardsShowIt = () =>
      Promise.all([
        card(page, 'Bedroom climate').getByText('27.3').waitFor({ timeout: 10_000 }),
        roomCard(page, 'Bedroom').getByText('27.3°C').waitFor({ timeout: 10_000 }),
        roomCard(page, 'Bedroom').getByText('48%').waitFor({ timeout: 10_000 }),
      ]).then(
        () => 'shown' as const,
        () => 'not shown in 10 s' as const,
      );
    let outcome: string = 'replaced';
    for (let report = 0; outcome === 'replaced' && report < 5; report++) {
      const next = simulatorReport();
      bus.publish(climateTopic, JSON.stringify({ temperature: 27.3, humidity: 48.2 }));
      outcome = await Promise.race([cardsShowIt(), next.reported]);
      next.stop();
    }
    expect(outcome).toBe('shown');

    // The card's switch commands the device, and the simulated lamp's answer comes back.
    const lamp = card(page, 'Living room lamp').getByRole('switch', { name: 'Power Living room lamp' });
    const wasOn = (await lamp.getAttribute('aria-checked')) === 'true';
    await lamp.click();
    await eventually(
      () => lamp.getAttribute('aria-checked'),
      (checked) => checked === String(!wasOn),
    );
    expect(setsFor('Living room lamp').at(-1)).toMatchObject({ state: wasOn ? 'OFF' : 'ON' });

    // One stream connection for the whole page, every card reading it.
    expect(sockets.filter((url) => url.includes('/ws/devicehub'))).toHaveLength(1);
    await page.screenshot({ path: path.join(artifactsDir, 'home-favourites.png'), fullPage: true });
    expect(errors).toEqual([]);
  });

  it('reorders with the move buttons (keyboard too) and keeps the order on the server', async () => {
    const { page } = await openHome(admin);
    await card(page, 'Front door').waitFor();
    await card(page, 'Front door').getByRole('button', { name: 'Move Front door up' }).click();
    await eventually(
      () => cardNames(page),
      (names) => names.join() === 'Bedroom climate,Front door,Living room lamp',
    );
    // The keyboard: the moved card's button keeps the focus, so Enter moves it again.
    await page.keyboard.press('Enter');
    await eventually(
      () => cardNames(page),
      (names) => names.join() === 'Front door,Bedroom climate,Living room lamp',
    );
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe(
      'Move Front door down',
    );
    expect(
      await card(page, 'Front door').getByRole('button', { name: 'Move Front door up' }).isDisabled(),
    ).toBe(true);
    await eventually(
      saved,
      (ids) => ids.join() === ['Front door', 'Bedroom climate', 'Living room lamp'].map(idOf).join(),
    );
  });

  it('a second browser of the same person follows the list without reloading', async () => {
    const first = await openHome(admin);
    const second = await openHome(admin);
    await card(second.page, 'Living room lamp').waitFor();
    await card(first.page, 'Living room lamp').waitFor();
    // Un-starred in the first browser: gone from the second.
    await card(first.page, 'Living room lamp')
      .getByRole('button', { name: 'Remove Living room lamp from favourites' })
      .click();
    await card(second.page, 'Living room lamp').waitFor({ state: 'detached', timeout: 10_000 });
    // Added from elsewhere (another client of the API): it appears in both, at the end.
    const ids = await saved();
    expect(ids).not.toContain(idOf('Living room lamp'));
    await api('PUT', '/api/favourites', { device_ids: [...ids, idOf('Hallway lamp')] });
    await card(second.page, 'Hallway lamp').waitFor({ timeout: 10_000 });
    await card(first.page, 'Hallway lamp').waitFor({ timeout: 10_000 });
    expect((await cardNames(second.page)).at(-1)).toBe('Hallway lamp');
    expect(second.errors).toEqual([]);
  });

  it('"All off" on a room card turns its lights off on the bus', async () => {
    const { page } = await openHome(admin);
    const room = roomCard(page, 'Living room');
    await room.waitFor();
    // Both lamps on first, through the API.
    for (const name of ['Living room lamp', 'Hallway lamp']) {
      await api('POST', `/api/devicehub/devices/${idOf(name)}/commands`, { state: { on: true } });
    }
    await room.getByText('2 on').waitFor({ timeout: 10_000 });
    const before = sent.length;
    await room.getByRole('button', { name: 'All off in Living room' }).click();
    await room.getByText('Turned off 2 of 2').waitFor({ timeout: 10_000 });
    // The summary counts commands the server took; the bus may hear them a moment later.
    const offsOnBus = () => sent.slice(before).filter((message) => message.payload.state === 'OFF');
    const offs = await eventually(
      async () => offsOnBus(),
      (list) => list.length >= 2,
    );
    expect(offs.map((message) => message.topic).sort()).toEqual([
      'zigbee2mqtt/Hallway lamp/set',
      'zigbee2mqtt/Living room lamp/set',
    ]);
    await room.getByText('0 on').waitFor({ timeout: 10_000 });
    await eventually(
      () => hubDevices(suite.server.url, admin),
      (list) =>
        list
          .filter((device) => ['Living room lamp', 'Hallway lamp'].includes(device.name))
          .every((device) => device.state.state === 'OFF'),
    );
    const link = room.getByRole('link', { name: 'Show devices in Living room' });
    expect(await link.getAttribute('href')).toMatch(/^\/devices\?room=[^&]+&group=room$/);
  });

  it('keeps home as it was for a `user`', async () => {
    const { page, errors } = await openHome(plain);
    await page.getByRole('switch', { name: 'Living Room Lamp power' }).waitFor();
    await page.waitForTimeout(500);
    expect(await page.getByRole('region', { name: 'Favourites' }).count()).toBe(0);
    expect(await page.getByRole('region', { name: 'Rooms' }).count()).toBe(0);
    expect(await page.getByText(/Star devices/).count()).toBe(0);
    expect(errors).toEqual([]);
  });

  for (const theme of THEMES) {
    for (const width of [360, 1440]) {
      it(`has no serious axe findings and fits at ${width} px in the ${theme} theme`, async () => {
        const { page } = await openHome(admin, { viewport: { width, height: 900 }, colorScheme: theme });
        await favourites(page).locator('article.favourite-card').first().waitFor();
        await roomCard(page, 'Living room').waitFor();
        expect(await seriousA11yViolations(page, 'main')).toEqual([]);
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
        await page.screenshot({
          path: path.join(artifactsDir, `home-favourites-${width}-${theme}.png`),
          fullPage: true,
        });
      });
    }
  }
});

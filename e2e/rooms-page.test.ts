import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ScriptedZigbee2mqtt } from '../server/src/devicehub/adapters/zigbee2mqtt/fixtures/scripted-zigbee2mqtt.js';
import { eventually } from '../server/test/wait.js';
import { seriousA11yViolations } from './support/axe.js';
import { artifactsDir, closePages } from './support/browser.js';
import { hubDevices } from './support/devices.page.js';
import { type Account, ADA, apiCall, gotoWithToken, logIn, signUp } from './support/settings.page.js';
import { useE2e } from './support/suite.js';

// docs/screens.md#toolbar, #group-by-room, #room-actions and #manage-rooms in Chromium: devices
// of a scripted Zigbee2MQTT, rooms made in the dialog, views opened from their URL.
describe('Devices page: filters, rooms and room actions', () => {
  const suite = useE2e({ bus: true, env: { SIMULATOR: 'off' } });
  let z2m: ScriptedZigbee2mqtt;
  let admin: Account;
  const pages: Page[] = [];

  const LAMP = 'Living room/Lamp';
  const DOOR = 'Front door';
  const REMOTE = 'Kitchen remote';

  /** A page signed in as the admin, at `route`, the device list loaded. */
  const open = async (
    route = '/devices',
    viewport = { width: 1280, height: 900 },
    colorScheme?: 'light' | 'dark',
  ) => {
    const { refreshToken } = await logIn(suite.server.url, admin.email, admin.password);
    const context = await suite.browser.newContext({ viewport, ...(colorScheme ? { colorScheme } : {}) });
    const page = await context.newPage();
    pages.push(page);
    await gotoWithToken(page, suite.server.url, refreshToken, route);
    await page.getByText('Metadata: rest').waitFor();
    await page.getByText('State: connected').waitFor();
    return page;
  };
  const tileNames = (page: Page) =>
    page
      .locator('article.device-tile')
      .evaluateAll((tiles) => tiles.map((tile) => tile.getAttribute('aria-label')));
  const api = async <T>(method: string, route: string, body?: unknown) => {
    const { accessToken } = await logIn(suite.server.url, admin.email, admin.password);
    return apiCall<T>(suite.server.url, method, route, body, accessToken);
  };
  const idOf = async (name: string) => {
    const device = (await hubDevices(suite.server.url, admin)).find((candidate) => candidate.name === name);
    if (!device) throw new Error(`no device named ${name}`);
    return device.id;
  };

  beforeAll(async () => {
    admin = await signUp(suite.server.url, ADA);
    z2m = await ScriptedZigbee2mqtt.connect(suite.server.busUrl, 'zigbee2mqtt');
    await z2m.publishDevices();
    await eventually(
      async () => (await hubDevices(suite.server.url, admin)).map((device) => device.name),
      (names) => [LAMP, DOOR, REMOTE].every((name) => names.includes(name)),
    );
    // The lamp is on, the remote's battery is low, the door is offline.
    await z2m.publish(LAMP, { state: 'ON', brightness: 200 }, true);
    await z2m.publish(`${LAMP}/availability`, { state: 'online' }, true);
    await z2m.publish(REMOTE, { battery: 9, action: null }, true);
    await z2m.publish(`${REMOTE}/availability`, { state: 'online' }, true);
    await z2m.publish(`${DOOR}/availability`, { state: 'offline' }, true);
    await eventually(
      async () =>
        (await hubDevices(suite.server.url, admin)).find((device) => device.name === LAMP)?.state.state,
      (state) => state === 'ON',
    );
  });
  afterAll(async () => {
    await closePages(pages);
    await z2m?.close();
  });

  it('creates, renames, re-icons, orders and deletes rooms and floors in the dialog', async () => {
    const page = await open();
    await page.getByRole('button', { name: 'Manage rooms' }).click();
    const dialog = page.getByRole('dialog', { name: 'Manage rooms' });
    await dialog.waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);

    const addRoom = async (name: string) => {
      await dialog.getByLabel('New room name', { exact: true }).fill(name);
      await dialog.getByRole('button', { name: 'Add room' }).click();
      await dialog.getByLabel(`Name of ${name}`, { exact: true }).waitFor();
    };
    await addRoom('Living room');
    await addRoom('Kitchen');
    await addRoom('Hall');
    // A duplicate is refused by the server, its message shown inline, nothing added.
    await dialog.getByLabel('New room name', { exact: true }).fill('kitchen');
    await dialog.getByRole('button', { name: 'Add room' }).click();
    await dialog
      .getByRole('alert')
      .getByText('A room named "kitchen" already exists without a floor')
      .waitFor();

    // Rename, new icon, reorder by keyboard.
    await dialog.getByLabel('Name of Hall', { exact: true }).fill('Hallway');
    await dialog.getByLabel('Name of Hall', { exact: true }).press('Enter');
    await dialog.getByLabel('Name of Hallway', { exact: true }).waitFor();
    await dialog.getByLabel('Icon of Kitchen', { exact: true }).selectOption('cooking-pot');
    await dialog.getByRole('button', { name: 'Move Hallway up' }).focus();
    await page.keyboard.press('Enter');
    const order = () =>
      eventually(
        async () => (await api<{ rooms: { name: string; icon: string }[] }>('GET', '/api/rooms')).data.rooms,
        () => true,
      );
    await eventually(
      order,
      (rooms) => rooms.map((room) => room.name).join() === 'Living room,Hallway,Kitchen',
    );
    expect((await order()).find((room) => room.name === 'Kitchen')?.icon).toBe('cooking-pot');

    // A floor, a room put on it, then deleted again (its room stays).
    await dialog.getByLabel('New floor name', { exact: true }).fill('Ground floor');
    await dialog.getByRole('button', { name: 'Add floor' }).click();
    await dialog.getByLabel('Floor of Kitchen', { exact: true }).selectOption({ label: 'Ground floor' });
    await eventually(
      async () =>
        (await api<{ rooms: { name: string; floor_id: string | null }[] }>('GET', '/api/rooms')).data,
      (data) => data.rooms.find((room) => room.name === 'Kitchen')?.floor_id !== null,
    );
    await dialog.getByRole('button', { name: 'Delete Ground floor' }).click();
    await dialog.getByRole('button', { name: 'Delete floor' }).click();
    await dialog.getByText('No floors yet.').waitFor();

    // Delete a room: confirmed, and it goes.
    await addRoom('Attic');
    await dialog.getByRole('button', { name: 'Delete Attic' }).click();
    await dialog.getByText('Delete Attic? Its devices become Unassigned.').waitFor();
    await dialog.getByRole('button', { name: 'Delete room' }).click();
    await dialog.getByLabel('Name of Attic', { exact: true }).waitFor({ state: 'detached' });
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
  });

  it('opens filtered views from the URL, and back/forward walks through them', async () => {
    const rooms = (await api<{ rooms: { id: string; name: string }[] }>('GET', '/api/rooms')).data.rooms;
    const living = rooms.find((room) => room.name === 'Living room')!;
    const kitchen = rooms.find((room) => room.name === 'Kitchen')!;
    expect(
      (await api('PUT', `/api/rooms/${living.id}/devices`, { device_ids: [await idOf(LAMP)] })).status,
    ).toBe(200);
    expect(
      (await api('PUT', `/api/rooms/${kitchen.id}/devices`, { device_ids: [await idOf(REMOTE)] })).status,
    ).toBe(200);

    const page = await open('/devices');
    await eventually(
      () => tileNames(page),
      (names) => names.includes(DOOR) && names.includes(LAMP),
    );
    const total = (await tileNames(page)).length;
    await page.goto(`${suite.server.url}/devices?status=offline`);
    const offline = await eventually(
      () => tileNames(page),
      (names) => names.includes(DOOR) && !names.includes(LAMP) && !names.includes(REMOTE),
    );
    // The counts follow the filter, the totals beside them.
    expect(await page.locator('[data-stat="total"]').textContent()).toBe(`${offline.length} of ${total}`);
    expect(await page.getByLabel('Status', { exact: true }).inputValue()).toBe('offline');

    await page.goto(`${suite.server.url}/devices?room=living-room`);
    await eventually(
      () => tileNames(page),
      (names) => names.join() === LAMP,
    );
    await page.goto(`${suite.server.url}/devices?battery=low`);
    await eventually(
      () => tileNames(page),
      (names) => names.join() === REMOTE,
    );
    // Search finds by room name; typing goes to the URL.
    await page.getByLabel('Search devices', { exact: true }).fill('kitchen');
    await page.waitForURL(/q=kitchen/);
    await page.getByLabel('Room', { exact: true }).selectOption({ label: 'Unassigned' });
    await page.waitForURL(/room=unassigned/);
    await page.getByText('No devices match these filters.').waitFor();
    await page.goBack();
    await page.waitForURL((url) => !url.search.includes('room='));
    await eventually(
      () => tileNames(page),
      (names) => names.join() === REMOTE,
    );
    // Clear filters shows everything again.
    await page.getByRole('button', { name: 'Clear filters' }).first().click();
    await eventually(
      () => tileNames(page),
      (names) => names.length === total,
    );
    expect(new URL(page.url()).search).toBe('');
  });

  it('groups by room, collapses a room for good, and "All off" switches its lights off on the bus', async () => {
    const page = await open('/devices?group=room');
    const sections = () =>
      page.locator('.room-section-heading h2').evaluateAll((headings) => headings.map((h) => h.textContent));
    await eventually(sections, (names) => names.join() === 'Living room,Hallway,Kitchen,Unassigned');
    const living = page.locator('section.room-section', {
      has: page.getByRole('button', { name: 'Living room', exact: true }),
    });
    await living.getByText('1 device · 1 on · 0 offline').waitFor();
    await living.locator(`article[aria-label="${LAMP}"]`).waitFor();

    // Collapsed stays collapsed after a reload.
    await page.getByRole('button', { name: 'Kitchen', exact: true }).click();
    expect(
      await page.getByRole('button', { name: 'Kitchen', exact: true }).getAttribute('aria-expanded'),
    ).toBe('false');
    await page.reload();
    await page.getByRole('button', { name: 'Kitchen', exact: true }).waitFor();
    expect(
      await page.getByRole('button', { name: 'Kitchen', exact: true }).getAttribute('aria-expanded'),
    ).toBe('false');
    expect(await page.locator(`article[aria-label="${REMOTE}"]`).count()).toBe(0);

    // docs/screens.md#room-actions: a device counts as done once its state confirms the command;
    // the lamp echoes what it is told, as Zigbee2MQTT does after a /set.
    z2m.echo = (name, payload) => (name === LAMP ? payload : undefined);
    const before = z2m.sets.length;
    await page.getByRole('button', { name: 'All off in Living room' }).click();
    await page.getByText('Turned off 1 of 1', { exact: true }).waitFor();
    expect(z2m.sets.slice(before)).toEqual([{ name: LAMP, payload: { state: 'OFF' } }]);
    // The lamp's report of being off: the heading's count follows.
    await living.getByText('1 device · 0 on · 0 offline').waitFor();
  });

  it('shows a room created and renamed in another browser without reloading', async () => {
    const watcher = await open('/devices?group=room');
    await watcher.getByRole('button', { name: 'Living room', exact: true }).waitFor();
    const editor = await open();
    await editor.getByRole('button', { name: 'Manage rooms' }).click();
    const dialog = editor.getByRole('dialog', { name: 'Manage rooms' });
    await dialog.getByLabel('New room name', { exact: true }).fill('Study');
    await dialog.getByRole('button', { name: 'Add room' }).click();
    await watcher.getByRole('button', { name: 'Study', exact: true }).waitFor();
    await dialog.getByLabel('Name of Study', { exact: true }).fill('Office');
    await dialog.getByLabel('Name of Study', { exact: true }).press('Enter');
    await watcher.getByRole('button', { name: 'Office', exact: true }).waitFor();
    expect(await watcher.getByRole('button', { name: 'Study', exact: true }).count()).toBe(0);
  });

  for (const colorScheme of ['light', 'dark'] as const) {
    for (const width of [360, 1440]) {
      it(`has no serious axe findings at ${width} px in the ${colorScheme} theme`, async () => {
        const page = await open('/devices?group=room', { width, height: 900 }, colorScheme);
        await page.getByRole('button', { name: 'Living room', exact: true }).waitFor();
        expect(await seriousA11yViolations(page)).toEqual([]);
        fs.mkdirSync(artifactsDir, { recursive: true });
        await page.screenshot({
          path: path.join(artifactsDir, `rooms-page-${width}-${colorScheme}.png`),
          fullPage: true,
        });
        await page.goto(`${suite.server.url}/devices?status=online&type=light`);
        await page.locator(`article[aria-label="${LAMP}"]`).waitFor();
        expect(await seriousA11yViolations(page)).toEqual([]);
        await page.getByRole('button', { name: 'Manage rooms' }).click();
        await page.getByRole('dialog', { name: 'Manage rooms' }).waitFor();
        expect(await seriousA11yViolations(page)).toEqual([]);
        await page.screenshot({ path: path.join(artifactsDir, `manage-rooms-${width}-${colorScheme}.png`) });
        // Nothing sticks out sideways on a phone.
        expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(
          true,
        );
      });
    }
  }
});

import fs from 'node:fs';
import path from 'node:path';
import type { Favourites, Room, RoomsResponse } from '@hearth/contracts';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ScriptedZigbee2mqtt } from '../server/src/devicehub/adapters/zigbee2mqtt/fixtures/scripted-zigbee2mqtt.js';
import { eventually } from '../server/test/wait.js';
import { seriousA11yViolations } from './support/axe.js';
import { artifactsDir } from './support/browser.js';
import { type Account, ADA, apiCall, gotoWithToken, logIn, signUp } from './support/settings.page.js';
import { useE2e } from './support/suite.js';

interface WireDevice {
  id: string;
  name: string;
  room_id: string | null;
  suggested_room: string | null;
}

// docs/rooms.md#on-the-devices-page in Chromium: a scripted Zigbee2MQTT whose friendly names
// follow its `room/device` advice; devices are moved by the tile's menu (mouse and keyboard), in
// bulk, by drag and drop and by accepting suggestions, and starred. The server's answers are checked
// through the API.
describe('assigning devices to rooms on the Devices page', () => {
  const suite = useE2e({ bus: true, env: { SIMULATOR: 'off' } });
  let z2m: ScriptedZigbee2mqtt;
  let admin: Account;
  let token: string;
  const pages: Page[] = [];

  const api = async <T>(method: string, route: string, body?: unknown) => {
    const { status, data } = await apiCall<T>(suite.server.url, method, route, body, token);
    if (status >= 300) throw new Error(`${method} ${route} answered ${status}: ${JSON.stringify(data)}`);
    return data;
  };
  const devices = () => api<WireDevice[]>('GET', '/api/devicehub/devices');
  const rooms = async () => (await api<RoomsResponse>('GET', '/api/rooms')).rooms;
  const roomOf = async (name: string) => {
    const device = (await devices()).find((d) => d.name === name);
    return (await rooms()).find((room) => room.id === device?.room_id)?.name ?? null;
  };
  /** Waits until the server holds each device in the named room (null: unassigned). */
  const expectRooms = (wanted: Record<string, string | null>) =>
    eventually(
      async () =>
        Object.fromEntries(await Promise.all(Object.keys(wanted).map(async (n) => [n, await roomOf(n)]))),
      (now) => Object.entries(wanted).every(([name, room]) => now[name] === room),
    );

  const open = async (width = 1440, colorScheme: 'light' | 'dark' = 'light') => {
    const { refreshToken } = await logIn(suite.server.url, admin.email, admin.password);
    const page = await suite.browser.newPage({ viewport: { width, height: 900 }, colorScheme });
    pages.push(page);
    await gotoWithToken(page, suite.server.url, refreshToken, '/devices');
    await page.getByText('State: connected').waitFor();
    await page.locator('article[aria-label="Stairs switch"]').waitFor();
    return page;
  };
  const tile = (page: Page, name: string) => page.locator(`article[aria-label="${name}"]`);
  // docs/screens.md#the-tiles-menu: the room menu and the star are in the tile's menu ("…"); the
  // tile itself shows the room's name.
  const roomButton = (page: Page, name: string, room: string) =>
    tile(page, name).getByRole('button', { name: `Room of ${name}: ${room}` });
  const menuButton = (page: Page, name: string) =>
    tile(page, name).getByRole('button', { name: `Options for ${name}` });
  const openMenu = (page: Page, name: string) => menuButton(page, name).click();
  const roomShown = (page: Page, name: string, room: string) =>
    tile(page, name).locator('.tile-room-name').getByText(room, { exact: true });
  /** PUT calls of the assignment API the page makes. */
  const assignments = (page: Page) => {
    const seen: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'PUT' && /\/api\/rooms\/[^/]+\/devices$/.test(request.url())) {
        seen.push(`${new URL(request.url()).pathname} ${request.postData()}`);
      }
    });
    return seen;
  };

  beforeAll(async () => {
    fs.mkdirSync(artifactsDir, { recursive: true });
    admin = await signUp(suite.server.url, ADA);
    token = (await logIn(suite.server.url, admin.email, admin.password)).accessToken;
    z2m = await ScriptedZigbee2mqtt.connect(suite.server.busUrl, 'zigbee2mqtt');
    // Zigbee2MQTT's own advice: `room/device`. "Living room/Lamp" is the fixture's already.
    const renamed: Record<string, string> = {
      'Kitchen remote': 'Kitchen/Remote',
      'Front door': 'Hall/Front door',
    };
    for (const device of z2m.devices) {
      const name = renamed[String(device.friendly_name)];
      if (name) device.friendly_name = name;
    }
    await z2m.publishDevices();
    await eventually(devices, (list) =>
      ['Living room/Lamp', 'Kitchen/Remote', 'Hall/Front door', 'Stairs switch'].every((n) =>
        list.some((d) => d.name === n),
      ),
    );
    // A room whose name differs from the suggestion "Kitchen" only in case.
    await api<Room>('POST', '/api/rooms', { name: 'kitchen' });
  });
  afterAll(async () => {
    for (const page of pages) await page.close().catch(() => {});
    await z2m?.close();
  });

  it('accepts one suggestion, creating its room, then all the others with one call per room', async () => {
    const page = await open();
    const calls = assignments(page);
    const lamp = tile(page, 'Living room/Lamp');
    await lamp.getByText('Suggested: Living room').waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
    await lamp.getByRole('button', { name: 'Accept: move Living room/Lamp to Living room' }).click();
    await roomShown(page, 'Living room/Lamp', 'Living room').waitFor();
    // Under its room the lamp is "Lamp"; the full name is on hover.
    const heading = lamp.getByRole('heading');
    expect(await heading.textContent()).toBe('Lamp');
    expect(await heading.getAttribute('title')).toBe('Living room/Lamp');
    await expect(lamp.getByText(/Suggested/).count()).resolves.toBe(0);

    await page.getByRole('button', { name: 'Accept all suggestions (2)' }).click();
    await roomShown(page, 'Kitchen/Remote', 'kitchen').waitFor();
    await roomShown(page, 'Hall/Front door', 'Hall').waitFor();
    await page.getByRole('button', { name: /Accept all suggestions/ }).waitFor({ state: 'detached' });
    await expectRooms({
      'Living room/Lamp': 'Living room',
      'Kitchen/Remote': 'kitchen',
      'Hall/Front door': 'Hall',
    });
    // The existing "kitchen" took the Kitchen suggestion: no second kitchen.
    expect((await rooms()).map((room) => room.name).sort()).toEqual(['Hall', 'Living room', 'kitchen']);
    expect(calls).toHaveLength(3);
  });

  it("moves a device with the tile's room menu, into a new room too, and a second page follows live", async () => {
    const page = await open();
    const other = await open();
    await openMenu(page, 'Stairs switch');
    await roomButton(page, 'Stairs switch', 'Unassigned').click();
    const menu = page.getByRole('menu', { name: 'Move Stairs switch to room' });
    expect(await menu.getByRole('menuitemradio', { name: 'Unassigned' }).getAttribute('aria-checked')).toBe(
      'true',
    );
    await menu.getByRole('menuitemradio', { name: 'Hall' }).click();
    await roomButton(page, 'Stairs switch', 'Hall').waitFor();
    await roomShown(other, 'Stairs switch', 'Hall').waitFor();
    await expectRooms({ 'Stairs switch': 'Hall' });

    await roomButton(page, 'Stairs switch', 'Hall').click();
    await page.getByRole('menuitem', { name: 'New room…' }).click();
    await page.getByLabel('Room name').fill('Attic');
    await page.getByRole('button', { name: 'Create' }).click();
    await roomShown(page, 'Stairs switch', 'Attic').waitFor();
    await roomShown(other, 'Stairs switch', 'Attic').waitFor();
    await expectRooms({ 'Stairs switch': 'Attic' });
  });

  it('moves a device with the keyboard alone', async () => {
    const page = await open();
    await menuButton(page, 'Stairs switch').focus();
    await page.keyboard.press('Enter');
    const button = roomButton(page, 'Stairs switch', 'Attic');
    await button.focus();
    await page.keyboard.press('Enter');
    // Focus starts on the checked room; Home goes to the first, arrows move on.
    const rooms = page.getByRole('menu').getByRole('menuitemradio');
    await expect(page.evaluate(() => document.activeElement?.textContent)).resolves.toBe('Attic');
    await page.keyboard.press('Home');
    const first = await rooms.first().textContent();
    expect(first).toBe('kitchen');
    await page.keyboard.press('ArrowDown');
    await expect(page.evaluate(() => document.activeElement?.textContent)).resolves.toBe(
      await rooms.nth(1).textContent(),
    );
    await page.keyboard.press('Home');
    await page.keyboard.press('Enter');
    await roomButton(page, 'Stairs switch', 'kitchen').waitFor();
    // Focus is back on the tile's room button.
    await expect(page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).resolves.toBe(
      'Room of Stairs switch: kitchen',
    );
    await expectRooms({ 'Stairs switch': 'kitchen' });
    // Escape closes without moving.
    await page.keyboard.press('Enter');
    await page.getByRole('menu').waitFor();
    await page.keyboard.press('Escape');
    await page.getByRole('menu').waitFor({ state: 'detached' });
  });

  it('moves a selection with one call, and Escape leaves the selection', async () => {
    const page = await open();
    const calls = assignments(page);
    await page.getByRole('button', { name: 'Select', exact: true }).click();
    await page.getByRole('checkbox', { name: 'Select Stairs switch' }).check();
    await page.getByRole('checkbox', { name: 'Select Hall/Front door' }).check();
    await page.getByText('2 selected').waitFor();
    await page.getByRole('button', { name: 'Move to room' }).click();
    await page.getByRole('menuitemradio', { name: 'Living room' }).click();
    await roomShown(page, 'Stairs switch', 'Living room').waitFor();
    await roomShown(page, 'Hall/Front door', 'Living room').waitFor();
    await page.getByText('2 selected').waitFor({ state: 'detached' });
    expect(calls).toHaveLength(1);
    await expectRooms({ 'Stairs switch': 'Living room', 'Hall/Front door': 'Living room' });

    await page.getByRole('button', { name: 'Select', exact: true }).click();
    await page.getByRole('checkbox', { name: 'Select Stairs switch' }).check();
    await page.keyboard.press('Escape');
    await page
      .getByRole('checkbox', { name: /^Select / })
      .first()
      .waitFor({ state: 'detached' });
  });

  /**
   * Drags the tile with the mouse onto the drop bar's room. Not `locator.dragTo`: the bar only shows
   * once the drag is on, so the target does not exist when dragTo looks for it.
   */
  const drag = async (page: Page, name: string, room: string) => {
    const box = (await tile(page, name).locator('.tile-meta').boundingBox())!;
    await page.mouse.move(box.x + 5, box.y + 5);
    await page.mouse.down();
    await page.mouse.move(box.x + 40, box.y + 40, { steps: 5 });
    const target = page.locator(`[data-room-drop="${room}"]`);
    await target.waitFor();
    const to = (await target.boundingBox())!;
    await page.mouse.move(to.x + to.width / 2, to.y + to.height / 2, { steps: 5 });
    await page.mouse.up();
  };

  it('moves a tile, or the whole selection, by drag and drop on a wide screen', async () => {
    const page = await open(1440);
    const calls = assignments(page);
    const described = await tile(page, 'Stairs switch').getAttribute('aria-describedby');
    expect(await page.locator(`#${described}`).textContent()).toContain('use its room menu');
    await drag(page, 'Stairs switch', 'Hall');
    await roomShown(page, 'Stairs switch', 'Hall').waitFor();
    await expectRooms({ 'Stairs switch': 'Hall' });

    await page.getByRole('button', { name: 'Select', exact: true }).click();
    await page.getByRole('checkbox', { name: 'Select Stairs switch' }).check();
    await page.getByRole('checkbox', { name: 'Select Kitchen/Remote' }).check();
    await drag(page, 'Kitchen/Remote', 'Unassigned');
    await roomShown(page, 'Stairs switch', 'Unassigned').waitFor();
    await roomShown(page, 'Kitchen/Remote', 'Unassigned').waitFor();
    await expectRooms({ 'Stairs switch': null, 'Kitchen/Remote': null });
    expect(calls).toHaveLength(2);
  });

  it('does not drag on a narrow screen', async () => {
    const page = await open(360);
    expect(await tile(page, 'Stairs switch').getAttribute('draggable')).toBeNull();
  });

  it("stars a device: the list is saved and the same user's other page follows", async () => {
    const page = await open();
    const other = await open();
    // The star is in the tile's menu and names the device (issue 34); a starred tile shows a star.
    await openMenu(page, 'Stairs switch');
    await tile(page, 'Stairs switch')
      .getByRole('button', { name: 'Add Stairs switch to favourites' })
      .click();
    await tile(page, 'Stairs switch').getByRole('img', { name: 'Favourite' }).waitFor();
    await tile(other, 'Stairs switch').getByRole('img', { name: 'Favourite' }).waitFor();
    const stairs = (await devices()).find((d) => d.name === 'Stairs switch')!;
    expect((await api<Favourites>('GET', '/api/favourites')).device_ids).toEqual([stairs.id]);
    await openMenu(other, 'Stairs switch');
    await tile(other, 'Stairs switch')
      .getByRole('button', { name: 'Remove Stairs switch from favourites' })
      .click();
    await tile(page, 'Stairs switch').getByRole('img', { name: 'Favourite' }).waitFor({ state: 'detached' });
    await openMenu(page, 'Stairs switch');
    await tile(page, 'Stairs switch')
      .getByRole('button', { name: 'Add Stairs switch to favourites' })
      .waitFor();
    expect((await api<Favourites>('GET', '/api/favourites')).device_ids).toEqual([]);
  });

  for (const width of [360, 1440]) {
    for (const colorScheme of ['light', 'dark'] as const) {
      it(`has no serious axe findings at ${width} px in the ${colorScheme} theme, menu and selection open`, async () => {
        const page = await open(width, colorScheme);
        // A suggestion to show: a new `room/device` name on a device nobody assigned yet.
        await tile(page, 'Living room/Lamp').waitFor();
        expect(await seriousA11yViolations(page)).toEqual([]);
        await openMenu(page, 'Living room/Lamp');
        await roomButton(page, 'Living room/Lamp', 'Living room').click();
        await page.getByRole('menu').waitFor();
        expect(await seriousA11yViolations(page)).toEqual([]);
        await page.screenshot({
          path: path.join(artifactsDir, `rooms-assign-menu-${width}-${colorScheme}.png`),
        });
        await page.keyboard.press('Escape');
        await page.getByRole('button', { name: 'Select', exact: true }).click();
        await page.getByRole('checkbox', { name: 'Select Stairs switch' }).check();
        expect(await seriousA11yViolations(page)).toEqual([]);
        await page.screenshot({
          path: path.join(artifactsDir, `rooms-assign-selection-${width}-${colorScheme}.png`),
        });
        await page.close();
      });
    }
  }
});

import fs from 'node:fs';
import path from 'node:path';
import mqtt from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../server/test/wait.js';
import { artifactsDir } from './support/browser.js';
import { DevicesPage, hubDevices } from './support/devices.page.js';
import { type BusMessage, watchBus } from './support/server.js';
import { type Account, ADA, signUp } from './support/settings.page.js';
import { useE2e } from './support/suite.js';

describe('Devices page in Chromium against the simulator', () => {
  const suite = useE2e({ bus: true, env: { SIMULATOR: 'on', SIMULATOR_DROPOUTS: 'off' } });
  let bus: mqtt.MqttClient;
  let admin: Account;
  let plain: Account;
  const sent: BusMessage[] = [];
  const pages: DevicesPage[] = [];

  const open = async (account: Account, options = {}) => {
    const devices = await DevicesPage.open(suite.browser, suite.server.url, account, options);
    pages.push(devices);
    return devices;
  };
  /** What Zigbee2MQTT (the simulator) received on `<friendly_name>/set`. */
  const setsFor = (name: string) =>
    sent.filter((message) => message.topic === `zigbee2mqtt/${name}/set`).map((message) => message.payload);
  const idOf = async (name: string) => {
    const device = (await hubDevices(suite.server.url, admin)).find((candidate) => candidate.name === name);
    if (!device) throw new Error(`no device named ${name}`);
    return device;
  };

  beforeAll(async () => {
    admin = await signUp(suite.server.url, ADA);
    plain = await signUp(suite.server.url, { first_name: 'Uma', last_name: 'Plain', user_name: 'uma' });
    bus = await watchBus(
      suite.server.busUrl,
      ['zigbee2mqtt/+/set', 'zigbee2mqtt/bridge/request/device/rename'],
      sent,
    );
  });
  afterAll(async () => {
    for (const devices of pages) await devices.close();
    await bus?.endAsync();
  });

  it('lists the devices with their icons, pills, stats and live connection', async () => {
    const devices = await open(admin);
    await devices.heading().waitFor();
    await devices.text('State: connected').waitFor();
    await devices.text('Metadata: rest').waitFor();
    await devices.tile('Hallway lamp').waitFor();
    const count = (await hubDevices(suite.server.url, admin)).length;
    await devices
      .text(
        `Live inventory sourced from the Device Hub over MQTT/WebSocket · ${count} discovered · ${count} online`,
      )
      .waitFor();
    expect(await devices.tiles().count()).toBe(count);

    const names = await devices
      .tiles()
      .evaluateAll((tiles) => tiles.map((tile) => tile.getAttribute('aria-label') ?? ''));
    expect(names).toEqual([...names].sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase())));

    expect(await devices.icon('Hallway lamp').getAttribute('data-icon')).toBe('light');
    expect(await devices.icon('Front door').getAttribute('data-icon')).toBe('door');
    expect(await devices.icon('Coffee machine plug').getAttribute('data-icon')).toBe('plug');
    expect(await devices.icon('Bedroom climate').getAttribute('data-icon')).toBe('thermometer');
    expect(await devices.icon('Living room remote').getAttribute('data-icon')).toBe('battery');

    const doorPills = await devices.pillTexts('Front door');
    expect(doorPills).toEqual(expect.arrayContaining(['Zigbee2MQTT', 'FW 1.0.0']));
    // The simulated door opens and closes now and then; its pill reads one or the other.
    expect(doorPills.some((pill) => /^Contact: (Open|Closed)$/.test(pill))).toBe(true);
    expect(doorPills.some((pill) => /^\d+ capabilities$/.test(pill))).toBe(true);
    expect(await devices.tile('Front door').locator('.tile-meta').textContent()).toBe(
      'Aqara • MCCGQ11LM • sensor',
    );
    expect(await devices.tile('Shed door').locator('[data-binary="battery_low"]').textContent()).toBe(
      'Battery low: Low',
    );
    // Low battery is a warning (the tile itself may show a danger tone when its tamper alarm goes off).
    expect(
      await devices.tile('Shed door').locator('[data-binary="battery_low"]').getAttribute('class'),
    ).toContain('tone-warning');
    await devices.tile('Front door').getByText('Last seen just now').waitFor();
    await devices.text('Total devices').waitFor();

    fs.mkdirSync(artifactsDir, { recursive: true });
    await devices.page.screenshot({ path: path.join(artifactsDir, 'devices.png'), fullPage: true });
    expect(devices.errors).toEqual([]);
  });

  it('keeps its toolbar in place while the devices arrive and the pills connect', async () => {
    // Where the toolbar's search box is, each frame from the page's first script on: a control
    // that moves as the page fills in takes a click meant for another.
    const devices = await open(admin, {
      viewport: { width: 1440, height: 900 },
      initScript: () => {
        const seen: number[] = [];
        (window as unknown as { toolbarTops: number[] }).toolbarTops = seen;
        const frame = () => {
          const search = document.querySelector('.toolbar-search');
          const top = search ? Math.round(search.getBoundingClientRect().top + window.scrollY) : undefined;
          if (top !== undefined && top !== seen.at(-1)) seen.push(top);
          requestAnimationFrame(frame);
        };
        requestAnimationFrame(frame);
      },
    });
    await devices.text('State: connected').waitFor();
    await devices.text('Metadata: rest').waitFor();
    await devices.tile('Hallway lamp').waitFor();
    const count = (await hubDevices(suite.server.url, admin)).length;
    await devices.text(new RegExp(`· ${count} discovered · ${count} online$`)).waitFor();
    await devices.page.evaluate(() => new Promise(requestAnimationFrame));
    const tops = await devices.page.evaluate(
      () => (window as unknown as { toolbarTops: number[] }).toolbarTops,
    );
    expect(tops).toHaveLength(1);
  });

  it('toggles a light: the simulated device echoes the new state', async () => {
    const devices = await open(admin);
    const lamp = 'Living room lamp';
    await devices.power(lamp).waitFor();
    await devices.online(lamp);
    const before = (await idOf(lamp)).state.state;
    const wasOn = (await devices.power(lamp).getAttribute('aria-checked')) === 'true';
    expect(wasOn).toBe(before === 'ON');
    await devices.power(lamp).click();
    // The tile's text and the page's error card come with the switch: a failure says what the page saw.
    await eventually(
      async () => ({
        checked: await devices.power(lamp).getAttribute('aria-checked'),
        tile: await devices.tile(lamp).innerText(),
        classes: await devices.tile(lamp).getAttribute('class'),
        error: await devices.errorCard().allInnerTexts(),
        sent: setsFor(lamp).length,
      }),
      (seen) => seen.checked === String(!wasOn),
    );
    expect(setsFor(lamp).at(-1)).toMatchObject({ state: wasOn ? 'OFF' : 'ON' });
    await eventually(
      () => idOf(lamp),
      (device) => device.state.state === (wasOn ? 'OFF' : 'ON'),
    );
  });

  it('sets brightness with the slider (and switches the light on)', async () => {
    const devices = await open(admin);
    const lamp = 'Hallway lamp';
    const slider = devices.tile(lamp).locator('.control-slider input[type="range"]').first();
    await slider.waitFor();
    await slider.focus();
    await slider.press('End');
    await eventually(
      async () => ({
        brightness: (await idOf(lamp)).state.brightness,
        tile: await devices.tile(lamp).innerText(),
        classes: await devices.tile(lamp).getAttribute('class'),
        error: await devices.errorCard().allInnerTexts(),
        sent: setsFor(lamp),
      }),
      (seen) => seen.brightness === 254 || seen.brightness === 255,
    );
    expect(setsFor(lamp).at(-1)).toMatchObject({ state: 'ON' });
    expect([254, 255]).toContain(setsFor(lamp).at(-1)?.brightness);
  });

  it('applies a colour from the picker', async () => {
    const devices = await open(admin);
    const strip = 'Kitchen LED strip';
    const tile = devices.tile(strip);
    await tile.getByRole('button', { name: 'Adjust color' }).click();
    await tile.getByRole('button', { name: 'Close picker' }).waitFor();
    await tile.getByLabel(/hex$/).fill('#ff8800');
    await tile.getByRole('button', { name: 'Apply' }).click();
    await eventually(
      async () => setsFor(strip).at(-1),
      (payload) => payload !== undefined && JSON.stringify(payload).toUpperCase().includes('FF8800'),
    );
    expect(setsFor(strip).at(-1)).toMatchObject({ state: 'ON' });
    expect(await tile.getByRole('button', { name: 'Adjust color' }).isVisible()).toBe(true);
    expect(await devices.errorCard().count()).toBe(0);
  });

  it('picks an effect from the select', async () => {
    const devices = await open(admin);
    const lamp = 'Bedroom ceiling light';
    const select = devices.tile(lamp).locator('.control-select select').first();
    await select.waitFor();
    const options = await select
      .locator('option')
      .evaluateAll((all) => all.map((option) => (option as HTMLOptionElement).value));
    const effect = options.find((value) => value && value !== '') as string;
    await select.selectOption(effect);
    await eventually(
      async () => setsFor(lamp).at(-1),
      (payload) => payload?.effect === effect,
    );
    expect(setsFor(lamp).at(-1)).toMatchObject({ effect, state: 'ON' });
  });

  it('renames a device over the stream', async () => {
    const devices = await open(admin);
    await devices.tile('Office presence').waitFor();
    await devices.rename('Office presence', 'Study presence');
    await devices.tile('Study presence').waitFor();
    await eventually(
      () => hubDevices(suite.server.url, admin),
      (list) => list.some((device) => device.name === 'Study presence'),
    );
  });

  it('shows "State stream offline" when the stream is refused, and renames over HTTP', async () => {
    const devices = await open(admin, { blockStream: true });
    await devices.tile('Bedroom blind').waitFor();
    await devices.text('State stream offline').waitFor();
    await devices.text('Unable to connect to device stream').waitFor();
    const patch = devices.page.waitForRequest(
      (request) => request.method() === 'PATCH' && request.url().includes('/api/devicehub/devices/'),
    );
    await devices.rename('Bedroom blind', 'Bedroom roller blind');
    expect((await patch).postDataJSON()).toEqual({ name: 'Bedroom roller blind' });
    await devices.tile('Bedroom roller blind').waitFor();
    await eventually(
      () => hubDevices(suite.server.url, admin),
      (list) => list.some((device) => device.name === 'Bedroom roller blind'),
    );
    expect(await devices.tile('Bedroom roller blind').locator('.rename-error').count()).toBe(0);
  });

  it('refuses an empty name with "Name cannot be empty" and Escape cancels', async () => {
    const devices = await open(admin);
    const tile = devices.tile('Hallway motion');
    await devices.openMenu('Hallway motion');
    await tile.getByRole('button', { name: 'Rename Hallway motion' }).click();
    const field = devices.page.getByLabel('Device name');
    await field.fill('   ');
    await tile.getByRole('button', { name: 'Save' }).click();
    await tile.getByText('Name cannot be empty').waitFor();
    await field.press('Escape');
    await tile.getByRole('heading', { name: 'Hallway motion' }).waitFor();
  });

  it('shows a role `user` the permission message and opens no WebSocket', async () => {
    const devices = await open(plain);
    await devices.text('You do not have permission to view this page.').waitFor();
    await devices.page.waitForTimeout(1500);
    expect(devices.sockets.map((socket) => socket.url())).toEqual([]);
    expect(await devices.tiles().count()).toBe(0);
  });

  it('goes "State stream offline" while the server restarts and recovers', async () => {
    const devices = await open(admin);
    await devices.text('State: connected').waitFor();
    await bus.endAsync(true);
    await suite.server.stop();
    await devices.text('State stream offline').waitFor({ timeout: 10_000 });
    await suite.restart();
    bus = await mqtt.connectAsync(suite.server.busUrl, { protocolVersion: 4 });
    await devices.text('State: connected').waitFor({ timeout: 20_000 });
    await devices.text('Metadata: rest').waitFor();
    await devices.tile('Hallway lamp').waitFor();
    expect(await devices.errorCard().count()).toBe(0);
  });
});

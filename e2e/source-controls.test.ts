import mqtt from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ScriptedShelly } from '../server/src/devicehub/adapters/shelly/fixtures/scripted-shelly.js';
import { deviceInfo, plus2pmCover } from '../server/src/devicehub/adapters/shelly/fixtures/shelly-devices.js';
import { ScriptedTasmota } from '../server/src/devicehub/adapters/tasmota/fixtures/scripted-tasmota.js';
import {
  discoveryConfig,
  relays,
} from '../server/src/devicehub/adapters/tasmota/fixtures/tasmota-discovery.js';
import { eventually } from '../server/test/wait.js';
import { DevicesPage, tileOnline } from './support/devices.page.js';
import { type BusMessage, watchBus } from './support/server.js';
import { type Account, ADA, signUp } from './support/settings.page.js';
import { useE2e } from './support/suite.js';

// Issue 35 acceptance 3 in Chromium: a Tasmota dimmer, a Shelly cover (its RPC answered by a
// scripted device) and a Home Assistant discovery climate (a scripted producer that reports back
// what it is told), each on the embedded broker as the bus's external user, controlled from their
// tiles: the bus gets what each ecosystem takes. The tiles name their source, and the Source filter
// narrows the page to one.

/** The climate's topics: under Home Assistant's discovery prefix (the external user's root). */
const HVAC = 'homeassistant/hvac';
const climateConfig = {
  name: null,
  mode_cmd_t: `${HVAC}/mode/set`,
  mode_stat_t: `${HVAC}/mode`,
  modes: ['off', 'heat', 'cool', 'auto'],
  temp_cmd_t: `${HVAC}/target/set`,
  temp_stat_t: `${HVAC}/target`,
  curr_temp_t: `${HVAC}/current`,
  min_temp: 7,
  max_temp: 30,
  temp_step: 0.5,
  pr_mode_cmd_t: `${HVAC}/preset/set`,
  pr_mode_stat_t: `${HVAC}/preset`,
  pr_modes: ['eco', 'comfort', 'away'],
  avty_t: `${HVAC}/status`,
  dev: { ids: 'hvac-1', name: 'Hall thermostat', mf: 'Acme', mdl: 'T1' },
};

describe('controls of Tasmota, Shelly and Home Assistant devices on their tiles', () => {
  const suite = useE2e({ bus: true, env: { SIMULATOR: 'off', SHELLY_TOPIC_PREFIXES: 'shelly/+' } });
  let admin: Account;
  let dimmer: ScriptedTasmota;
  let blind: ScriptedShelly;
  let hvac: mqtt.MqttClient;
  let watcher: mqtt.MqttClient;
  const sent: BusMessage[] = [];
  const pages: DevicesPage[] = [];

  /** The embedded broker's listener as MQTT.js options (the external user's login). */
  const bus = (): mqtt.IClientOptions => {
    const url = new URL(suite.server.busUrl);
    return {
      host: url.hostname,
      port: Number(url.port),
      username: decodeURIComponent(url.username),
      password: decodeURIComponent(url.password),
      protocolVersion: 4,
    };
  };
  const on = (topic: string) =>
    sent
      .filter((message) => message.topic === topic)
      .map((message) => message.payload.raw ?? message.payload);
  const open = async () => {
    const page = await DevicesPage.open(suite.browser, suite.server.url, admin);
    pages.push(page);
    return page;
  };

  beforeAll(async () => {
    admin = await signUp(suite.server.url, ADA);
    watcher = await watchBus(suite.server.busUrl, ['cmnd/hall_dimmer/#', `${HVAC}/+/set`], sent);

    dimmer = await ScriptedTasmota.connect(
      bus(),
      'tasmota/discovery',
      discoveryConfig({ dn: 'Hall dimmer', t: 'hall_dimmer', rl: relays(2), lt_st: 1 }),
    );
    await dimmer.announce();

    const id = 'shellyplus2pm-a8032ab1e2e5';
    blind = await ScriptedShelly.connect(
      bus(),
      `shelly/${id}`,
      deviceInfo(id, 'Plus2PM', { name: 'Terrace blind' }),
      plus2pmCover(),
    );
    await blind.online();

    // A Home Assistant climate whose producer reports back what it is told, as a thermostat does.
    hvac = await mqtt.connectAsync({ ...bus(), clientId: 'hvac-producer' });
    const states: Record<string, string> = { mode: 'heat', target: '21', preset: 'eco', current: '19.5' };
    hvac.on('message', (topic, payload) => {
      const part = topic.slice(`${HVAC}/`.length, -'/set'.length);
      states[part] = payload.toString();
      void hvac.publishAsync(`${HVAC}/${part}`, payload.toString(), { retain: true });
    });
    await hvac.subscribeAsync(`${HVAC}/+/set`);
    await hvac.publishAsync('homeassistant/climate/hvac/thermostat/config', JSON.stringify(climateConfig), {
      retain: true,
    });
    await hvac.publishAsync(`${HVAC}/status`, 'online', { retain: true });
    for (const [part, value] of Object.entries(states))
      await hvac.publishAsync(`${HVAC}/${part}`, value, { retain: true });
  });
  afterAll(async () => {
    for (const page of pages) await page.close();
    for (const topic of [
      'homeassistant/climate/hvac/thermostat/config',
      ...['status', 'mode', 'target', 'preset', 'current'].map((p) => `${HVAC}/${p}`),
    ])
      await hvac?.publishAsync(topic, '', { retain: true });
    await hvac?.endAsync();
    await dimmer?.clear();
    await dimmer?.close();
    await blind?.clear();
    await blind?.close();
    await watcher?.endAsync();
  });

  it('dims a Tasmota dimmer from its tile: a Backlog of Dimmer on cmnd, then Power OFF from its switch', async () => {
    const page = await open();
    const tile = page.tile('Hall dimmer');
    await tileOnline(tile);
    expect(await page.pillTexts('Hall dimmer')).toContain('Tasmota');
    const brightness = tile.getByRole('slider', { name: /^Brightness/ });
    await brightness.fill('40');
    await brightness.blur();
    await eventually(
      async () => on('cmnd/hall_dimmer/Backlog'),
      (payloads) => payloads.length === 1,
    );
    expect(on('cmnd/hall_dimmer/Backlog')).toEqual(['NoDelay;Dimmer 40']);
    // The device reports it back: the tile follows, and is not "Not responding".
    await eventually(
      () => brightness.getAttribute('aria-valuetext'),
      (text) => text === '40 %',
    );
    const power = page.power('Hall dimmer');
    await eventually(
      () => power.getAttribute('aria-checked'),
      (checked) => checked === 'true',
    );
    await power.click();
    await eventually(
      async () => on('cmnd/hall_dimmer/Backlog'),
      (payloads) => payloads.length === 2,
    );
    expect(on('cmnd/hall_dimmer/Backlog')[1]).toBe('NoDelay;Power1 OFF');
    await eventually(
      () => power.getAttribute('aria-checked'),
      (checked) => checked === 'false',
    );
    expect(await tile.getByText('Not responding').count()).toBe(0);
  });

  it("closes and positions a Shelly cover from its tile as RPC, and shows the device's refusal on the tile", async () => {
    const page = await open();
    const tile = page.tile('Terrace blind');
    await tileOnline(tile);
    expect(await page.pillTexts('Terrace blind')).toContain('Shelly');
    await tile.getByRole('button', { name: 'Close', exact: true }).click();
    await eventually(
      async () => blind.received.filter((call) => call.startsWith('Cover.')),
      (calls) => calls.length === 1,
    );
    const position = tile.getByRole('slider', { name: /^Position/ });
    await position.fill('25');
    await position.blur();
    await eventually(
      async () => blind.received.filter((call) => call.startsWith('Cover.')),
      (calls) => calls.length === 2,
    );
    expect(blind.received.filter((call) => call.startsWith('Cover.'))).toEqual([
      'Cover.Close {"id":0}',
      'Cover.GoToPosition {"id":0,"pos":25}',
    ]);
    await eventually(
      () => position.getAttribute('aria-valuetext'),
      (text) => text === '25 %',
    );

    blind.fail('Cover.GoToPosition', -103, 'Cover not calibrated');
    await position.fill('60');
    await position.blur();
    const refusal = tile.getByRole('alert');
    await refusal.waitFor();
    expect(await refusal.textContent()).toBe('The device refused the command: Cover not calibrated (-103)');
  });

  it("sets a Home Assistant climate's mode, target temperature and preset from its tile, each on its command topic", async () => {
    const page = await open();
    const tile = page.tile('Hall thermostat');
    await tileOnline(tile);
    expect(await page.pillTexts('Hall thermostat')).toContain('Home Assistant');
    await tile.locator('[data-metric="thermostat.current_temperature"]').getByText('19.5').waitFor();
    await tile.getByRole('combobox', { name: 'Mode' }).selectOption('cool');
    await eventually(
      async () => on(`${HVAC}/mode/set`),
      (payloads) => payloads.length === 1,
    );
    const target = tile.getByRole('slider', { name: /^Target temperature/ });
    expect(await target.getAttribute('aria-valuetext')).toBe('21 °C');
    await target.fill('22.5');
    await target.blur();
    await tile.getByRole('combobox', { name: 'Preset' }).selectOption('away');
    await eventually(
      async () => [...on(`${HVAC}/target/set`), ...on(`${HVAC}/preset/set`)],
      (payloads) => payloads.length === 2,
    );
    // watchBus reads JSON where it can: the target's `22.5` arrives as the number.
    expect([on(`${HVAC}/mode/set`), on(`${HVAC}/target/set`), on(`${HVAC}/preset/set`)]).toEqual([
      ['cool'],
      [22.5],
      ['away'],
    ]);
    // What the thermostat reports back shows on the tile.
    await eventually(
      () => target.getAttribute('aria-valuetext'),
      (text) => text === '22.5 °C',
    );
    expect(await tile.getByRole('combobox', { name: 'Mode' }).inputValue()).toBe('cool');
  });

  it('names each source on its badge and narrows the page to one with the Source filter', async () => {
    const page = await open();
    await page.tile('Hall thermostat').waitFor();
    const source = page.page.getByLabel('Source', { exact: true });
    expect(await source.locator('option').allTextContents()).toEqual([
      'All sources',
      'Home Assistant',
      'Tasmota',
      'Shelly',
    ]);
    await source.selectOption('tasmota');
    await eventually(
      () => page.tiles().count(),
      (count) => count === 1,
    );
    expect(await page.tiles().getAttribute('aria-label')).toBe('Hall dimmer');
    expect(new URL(page.page.url()).searchParams.get('source')).toBe('tasmota');
    await source.selectOption('');
    await eventually(
      () => page.tiles().count(),
      (count) => count === 3,
    );
  });
});

import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  compositeDevicesFixture,
  ScriptedZigbee2mqtt,
} from '../server/src/devicehub/adapters/zigbee2mqtt/fixtures/scripted-zigbee2mqtt.js';
import { eventually } from '../server/test/wait.js';
import { seriousA11yViolations } from './support/axe.js';
import { artifactsDir } from './support/browser.js';
import { DevicesPage } from './support/devices.page.js';
import { type Account, ADA, signUp } from './support/settings.page.js';
import { useE2e } from './support/suite.js';

// Composite and list controls in Chromium: a Zigbee2MQTT on the bus lists real definitions (a
// siren, a lock, …) and records what reaches `<name>/set`.
describe('composite and list controls on device tiles', () => {
  const suite = useE2e({ bus: true, env: { SIMULATOR: 'off' } });
  let z2m: ScriptedZigbee2mqtt;
  let admin: Account;
  const pages: DevicesPage[] = [];

  const open = async (viewport = { width: 1280, height: 900 }) => {
    const devices = await DevicesPage.open(suite.browser, suite.server.url, admin, { viewport });
    pages.push(devices);
    return devices;
  };
  const setsFor = (name: string) => z2m.sets.filter((set) => set.name === name).map((set) => set.payload);

  beforeAll(async () => {
    admin = await signUp(suite.server.url, ADA);
    z2m = await ScriptedZigbee2mqtt.connect(suite.server.busUrl, 'zigbee2mqtt');
    z2m.devices = compositeDevicesFixture();
    await z2m.publishDevices();
    await z2m.publish('Hall siren/availability', { state: 'online' }, true);
    await z2m.publish('Front door lock', { state: 'LOCK', battery: 80 }, true);
  });
  afterAll(async () => {
    for (const devices of pages) await devices.close();
    await z2m?.close();
  });

  it("sets a siren's warning from its tile: one /set with the whole object", async () => {
    const devices = await open();
    const tile = devices.tile('Hall siren');
    await tile.getByRole('button', { name: 'Edit Warning' }).click();
    const warning = tile.getByRole('group', { name: 'Warning' });
    await warning.getByLabel('Mode').selectOption('burglar');
    await warning.getByLabel('Level', { exact: true }).selectOption('high');
    await warning.getByRole('switch', { name: 'Strobe' }).click();
    await warning.getByLabel('Duration').fill('10');
    expect(setsFor('Hall siren')).toEqual([]);
    await warning.getByRole('button', { name: 'Apply' }).click();
    await eventually(
      async () => setsFor('Hall siren'),
      (sets) => sets.length > 0,
    );
    expect(setsFor('Hall siren')).toEqual([
      { warning: { mode: 'burglar', level: 'high', strobe: true, duration: 10 } },
    ]);
    expect(await devices.errorCard().count()).toBe(0);
    expect(devices.errors).toEqual([]);
  });

  it("sets a lock's pin code from its tile", async () => {
    const devices = await open();
    const tile = devices.tile('Front door lock');
    await tile.getByRole('button', { name: 'Edit Pin code' }).click();
    const pin = tile.getByRole('group', { name: 'Pin code' });
    await pin.getByLabel('User', { exact: true }).fill('3');
    await pin.getByLabel('User type').selectOption('unrestricted');
    await pin.getByRole('switch', { name: 'User enabled' }).click();
    await pin.getByLabel('PIN code').fill('4321');
    await pin.getByRole('button', { name: 'Apply' }).click();
    await eventually(
      async () => setsFor('Front door lock'),
      (sets) => sets.length > 0,
    );
    expect(setsFor('Front door lock')).toEqual([
      { pin_code: { user: 3, user_type: 'unrestricted', user_enabled: true, pin_code: 4321 } },
    ]);
  });

  it('edits a list item by item, and says why Apply is off', async () => {
    const devices = await open();
    const tile = devices.tile('Living room gradient');
    // The gradient is the tile's 7th control: behind "Show N more".
    await tile
      .getByRole('button', { name: /^Show \d+ more$/ })
      .first()
      .click();
    await tile.getByRole('button', { name: 'Edit Gradient' }).click();
    const gradient = tile.getByRole('group', { name: 'Gradient' });
    expect(await gradient.getByRole('button', { name: 'Apply' }).isDisabled()).toBe(true);
    await gradient.getByText('Hex 1 is required').waitFor();
    await gradient.getByLabel('Hex 1', { exact: true }).fill('#FF0000');
    await gradient.getByRole('button', { name: 'Add Hex' }).click();
    await gradient.getByLabel('Hex 2', { exact: true }).fill('#0000FF');
    await gradient.getByRole('button', { name: 'Apply' }).click();
    await eventually(
      async () => setsFor('Living room gradient'),
      (sets) => sets.length > 0,
    );
    expect(setsFor('Living room gradient')).toEqual([{ gradient: ['#FF0000', '#0000FF'] }]);
  });

  it('has labelled controls with no serious axe findings, and fits a 360 px phone', async () => {
    const devices = await open({ width: 360, height: 780 });
    for (const [name, group] of [
      ['Hall siren', 'Warning'],
      ['Bedroom thermostat', 'Schedule'],
    ] as const) {
      const tile = devices.tile(name);
      const more = tile.getByRole('button', { name: /^Show \d+ more$/ });
      if (await more.count()) await more.first().click();
      await tile.getByRole('button', { name: `Edit ${group}` }).click();
      const opened = tile.getByRole('group', { name: group });
      await opened.waitFor();
      if (group === 'Schedule') {
        await opened.getByRole('button', { name: 'Add Day' }).click();
        await opened.getByRole('button', { name: 'Add Transition' }).click();
      }
      // The tile's controls (its header's Online status is the shared look's, checked elsewhere).
      const controls = `[data-device-id="${await tile.getAttribute('data-device-id')}"] .tile-controls`;
      expect({ name, violations: await seriousA11yViolations(devices.page, controls) }).toEqual({
        name,
        violations: [],
      });
      const [tileBox, groupBox] = [await tile.boundingBox(), await opened.boundingBox()];
      expect(groupBox!.x + groupBox!.width).toBeLessThanOrEqual(tileBox!.x + tileBox!.width);
    }
    const overflow = await devices.page.evaluate(
      () => document.documentElement.scrollWidth - window.innerWidth,
    );
    expect(overflow).toBeLessThanOrEqual(0);
    fs.mkdirSync(artifactsDir, { recursive: true });
    await devices
      .tile('Bedroom thermostat')
      .screenshot({ path: path.join(artifactsDir, 'device-controls-phone.png') });
  });
});

import mqtt from 'mqtt';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../server/test/wait.js';
import { type HubDevice, hubDevices } from './support/devices.page.js';
import { type BusMessage, watchBus } from './support/server.js';
import { type Account, ADA, apiCall, logIn, openSignedIn, signUp } from './support/settings.page.js';
import { useE2e } from './support/suite.js';

// docs/automations.md#page in Chromium (issue 37, acceptance 3): the humidity → fan automation
// built in the builder and tripped through the bus; a room saved as a scene, its lamps changed,
// the scene applied from home. The test is Zigbee2MQTT on the embedded broker.

const binary = (property: string) => ({
  type: 'binary',
  name: property,
  property,
  access: 7,
  value_on: 'ON',
  value_off: 'OFF',
});
const entry = (name: string, ieee: string, exposes: unknown[]) => ({
  ieee_address: ieee,
  type: 'Router',
  friendly_name: name,
  supported: true,
  interview_completed: true,
  definition: { model: 'M', vendor: 'V', description: name, exposes },
});
const DEVICES = [
  entry('Bathroom sensor', '0x00158d00000e2e01', [
    { type: 'numeric', name: 'humidity', property: 'humidity', access: 1, unit: '%' },
  ]),
  entry('Bathroom fan', '0x00158d00000e2e02', [{ type: 'switch', features: [binary('state')] }]),
  entry('Lounge lamp', '0x00158d00000e2e03', [
    {
      type: 'light',
      features: [
        binary('state'),
        {
          type: 'numeric',
          name: 'brightness',
          property: 'brightness',
          access: 7,
          value_min: 0,
          value_max: 254,
        },
      ],
    },
  ]),
  entry('Reading lamp', '0x00158d00000e2e04', [
    {
      type: 'light',
      features: [
        binary('state'),
        {
          type: 'numeric',
          name: 'brightness',
          property: 'brightness',
          access: 7,
          value_min: 0,
          value_max: 254,
        },
      ],
    },
  ]),
];

describe('automations and scenes in Chromium', () => {
  const suite = useE2e({ bus: true, env: { SIMULATOR: 'off', HOUSEHOLD_TIME_ZONE: 'Europe/Berlin' } });
  let z2m: mqtt.MqttClient;
  let watcher: mqtt.MqttClient;
  let admin: Account;
  let devices: HubDevice[];
  const sent: BusMessage[] = [];
  const pages: Page[] = [];
  const setsFor = (name: string) =>
    sent.filter((message) => message.topic === `zigbee2mqtt/${name}/set`).map((message) => message.payload);
  const idOf = (name: string) => devices.find((device) => device.name === name)?.id as string;
  const api = async <T>(method: string, route: string, body?: unknown) => {
    const { accessToken } = await logIn(suite.server.url, admin.email, admin.password);
    return apiCall<T>(suite.server.url, method, route, body, accessToken);
  };
  const report = (name: string, state: Record<string, unknown>) =>
    z2m.publishAsync(`zigbee2mqtt/${name}`, JSON.stringify(state));

  beforeAll(async () => {
    admin = await signUp(suite.server.url, ADA);
    z2m = await mqtt.connectAsync(suite.server.busUrl, { protocolVersion: 4 });
    await z2m.publishAsync('zigbee2mqtt/bridge/devices', JSON.stringify(DEVICES), { retain: true });
    watcher = await watchBus(suite.server.busUrl, ['zigbee2mqtt/+/set'], sent);
    devices = await eventually(
      () => hubDevices(suite.server.url, admin),
      (list) => DEVICES.every((device) => list.some((each) => each.name === device.friendly_name)),
    );
    await report('Bathroom sensor', { humidity: 55 });
    await report('Bathroom fan', { state: 'OFF' });
  }, 60_000);
  afterAll(async () => {
    for (const page of pages) await page.context().close();
    await z2m?.endAsync();
    await watcher?.endAsync();
  });

  it('builds "when the bathroom humidity rises above 70, turn the fan on" in plain words; the bus trips it and the page shows the run', async () => {
    const { page, errors } = await openSignedIn(suite.browser, suite.server.url, admin, '/automations');
    pages.push(page);
    await page.getByRole('heading', { name: 'Automations', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'New automation' }).click();
    await page.getByLabel('Name', { exact: true }).fill('Bathroom fan when humid');
    const when = page.locator('fieldset.automation-part-list').nth(0);
    await when.getByLabel('Add a trigger').selectOption({ label: 'A device changes' });
    await when.getByLabel('Device').selectOption({ label: 'Bathroom sensor' });
    await when.getByLabel('Property').selectOption('humidity');
    await when.getByLabel('Comparison').selectOption('above');
    await when.getByLabel('Value').fill('70');
    await expect
      .poll(() => when.locator('.automation-part__words').textContent())
      .toBe('When the Bathroom sensor humidity rises above 70');
    const then = page.locator('fieldset.automation-part-list').nth(2);
    await then.getByLabel('Add an action').selectOption({ label: 'Set a device' });
    await then.getByLabel('Device').selectOption({ label: 'Bathroom fan' });
    await then.getByRole('switch').first().click();
    await expect
      .poll(() => then.locator('.automation-part__words').textContent())
      .toBe('Then set the Bathroom fan to on');
    await page.getByRole('button', { name: 'Save' }).click();
    const row = page.locator('li.automation-row', { hasText: 'Bathroom fan when humid' });
    await row.waitFor();
    expect(await row.locator('.automation-row__words').textContent()).toBe(
      'When the Bathroom sensor humidity rises above 70 — Then set the Bathroom fan to on',
    );

    await report('Bathroom sensor', { humidity: 76 });
    await eventually(
      async () => setsFor('Bathroom fan'),
      (list) => list.some((payload) => payload.state === 'ON'),
    );
    // The trace shows the run live: the trigger in words and the command sent.
    const run = row.locator('li.automation-run').first();
    await expect.poll(() => run.getAttribute('data-run-status'), { timeout: 10_000 }).toBe('done');
    expect(await run.locator('.automation-run__trigger').textContent()).toBe(
      'Bathroom sensor humidity 76 (above 70)',
    );
    expect(await run.locator('.automation-step').first().textContent()).toContain(
      'set the Bathroom fan to on sent',
    );
    expect(errors).toEqual([]);
  }, 60_000);

  it('saves a room as a scene on the Devices page, and applies it from home after the lamps changed', async () => {
    const room = (await api<{ id: string }>('POST', '/api/rooms', { name: 'Lounge', icon: 'sofa' })).data;
    await api('PUT', `/api/rooms/${room.id}/devices`, {
      device_ids: [idOf('Lounge lamp'), idOf('Reading lamp')],
    });
    await report('Lounge lamp', { state: 'ON', brightness: 100 });
    await report('Reading lamp', { state: 'OFF', brightness: 30 });
    await eventually(
      () => hubDevices(suite.server.url, admin),
      (list) => list.find((each) => each.name === 'Lounge lamp')?.state?.brightness === 100,
    );

    const { page } = await openSignedIn(
      suite.browser,
      suite.server.url,
      admin,
      `/devices?room=${room.id}&group=room`,
    );
    pages.push(page);
    const heading = page.locator(`.room-section-heading[data-section="${room.id}"]`);
    await heading.getByRole('button', { name: 'Save as scene' }).click();
    await page.getByRole('dialog').getByLabel('Name').fill('Evening');
    await page.getByRole('dialog').getByRole('button', { name: 'Save' }).click();
    await heading.getByRole('button', { name: 'Apply scene Evening' }).waitFor();

    // Someone changes the lamps.
    await report('Lounge lamp', { state: 'OFF', brightness: 254 });
    await report('Reading lamp', { state: 'ON', brightness: 200 });
    const before = { lounge: setsFor('Lounge lamp').length, reading: setsFor('Reading lamp').length };

    await page.goto(suite.server.url);
    const card = page.getByRole('region', { name: 'Rooms' }).locator('article[aria-label="Lounge"]');
    await card.getByRole('button', { name: 'Apply scene Evening' }).click();
    await eventually(
      async () => [
        setsFor('Lounge lamp').slice(before.lounge),
        setsFor('Reading lamp').slice(before.reading),
      ],
      ([lounge, reading]) =>
        JSON.stringify(lounge) === JSON.stringify([{ state: 'ON', brightness: 100 }]) &&
        JSON.stringify(reading) === JSON.stringify([{ state: 'OFF', brightness: 30 }]),
    );
    await page.getByText('Evening applied').waitFor();
  }, 60_000);
});

import type { Capability, Device } from '@hearth/contracts';
import { testCapability } from '@hearth/contracts/testing';
import { accessToken, createUser, startTestApp, type TestApp } from '../../test/app.js';
import type { TestDatabase } from '../../test/databases.js';
import type { Role } from '../users/index.js';

// Test support for history: a Hearth whose bus carries two Zigbee2MQTT devices, in Zigbee2MQTT's
// own format, that the test makes report through the bus.

const binary = (property: string, on: unknown, off: unknown) => ({
  type: 'binary',
  name: property,
  property,
  access: 1,
  value_on: on,
  value_off: off,
});
const numeric = (property: string, unit?: string) => ({
  type: 'numeric',
  name: property,
  property,
  access: 1,
  ...(unit ? { unit } : {}),
});
const device = (ieee: string, name: string, exposes: unknown[]) => ({
  ieee_address: ieee,
  type: 'EndDevice',
  friendly_name: name,
  supported: true,
  disabled: false,
  interview_completed: true,
  definition: { model: 'test', vendor: 'Test', description: name, exposes },
});

/**
 * Enum values a spreadsheet would take for formulas, as a device's list may name them (the CSV
 * export must keep them text).
 */
export const FORMULA_ACTIONS = ['=HYPERLINK("http://example.test/","x")', '+1', '-1', '@SUM(A1)'];

/** A lamp (on/off, brightness, an effect, an x/y colour, link quality), a door sensor and a remote. */
export const HISTORY_DEVICES = [
  device('0x0017880104e45517', 'Lamp', [
    {
      type: 'light',
      features: [
        { ...binary('state', 'ON', 'OFF'), access: 7, value_toggle: 'TOGGLE' },
        { ...numeric('brightness'), access: 7, value_min: 0, value_max: 254 },
        {
          type: 'composite',
          name: 'color_xy',
          property: 'color',
          access: 7,
          features: [
            { ...numeric('x'), access: 7 },
            { ...numeric('y'), access: 7 },
          ],
        },
      ],
    },
    { type: 'enum', name: 'effect', property: 'effect', access: 1, values: ['blink', 'breathe'] },
    numeric('linkquality', 'lqi'),
  ]),
  device('0x00158d0001e5a1b2', 'Front door', [
    binary('contact', false, true),
    numeric('battery', '%'),
    numeric('device_temperature', '°C'),
  ]),
  device('0x00158d0001e5a1c3', 'Remote', [
    {
      type: 'enum',
      name: 'action',
      property: 'action',
      access: 1,
      values: ['single', 'double', ...FORMULA_ACTIONS],
    },
  ]),
];

export interface RecordingHousehold {
  app: TestApp;
  resident: string;
  token(role: Role): Promise<string>;
  list(): Promise<Device[]>;
  byName(name: string): Promise<Device>;
  /** Publishes a device's state (or `<name>/availability`) as Zigbee2MQTT would. */
  report(topic: string, payload: unknown): Promise<void>;
  /** Waits until the hub shows `check` true of the named device. */
  until(name: string, check: (device: Device) => boolean): Promise<void>;
  /**
   * Waits until every reading reported before it is stored: the Lamp reports a link quality
   * of its own, and batches are written in order, so once that one is in, so is the rest.
   */
  recorded(): Promise<void>;
  close(): Promise<void>;
}

export async function startRecordingHousehold(
  database: TestDatabase,
  env: Record<string, string> = {},
): Promise<RecordingHousehold> {
  const base = `z2m-history-${crypto.randomUUID().slice(0, 8)}`;
  const app = await startTestApp(database, { ZIGBEE2MQTT_BASE_TOPIC: base, ...env });
  const token = async (role: Role) => accessToken(app, await createUser(app, role));
  const resident = await token('resident');
  const list = async (): Promise<Device[]> =>
    (
      await app.app.inject({
        url: '/api/devicehub/devices',
        headers: { authorization: `Bearer ${resident}` },
      })
    ).json();
  const waitFor = async (probe: () => Promise<boolean>, timeoutMs = 5000) => {
    const end = Date.now() + timeoutMs;
    while (!(await probe())) {
      if (Date.now() > end) throw new Error('condition not met in time');
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  };
  const byName = async (name: string) => {
    const found = (await list()).find((d) => d.name === name);
    if (!found) throw new Error(`no device ${name}`);
    return found;
  };
  await app.bus.publish(`${base}/bridge/devices`, JSON.stringify(HISTORY_DEVICES), { retain: true });
  await waitFor(async () => (await list()).length === HISTORY_DEVICES.length);
  const report = (topic: string, payload: unknown) =>
    app.bus.publish(`${base}/${topic}`, JSON.stringify(payload));
  let marker = 1000;
  const recorded = async () => {
    const lamp = await byName('Lamp');
    const from = Date.now();
    const value = marker++;
    await report('Lamp', { linkquality: value });
    const url = `/api/history?device_id=${lamp.id}&property=linkquality&from=${from}`;
    // The first batch also starts the history worker (some 0.5 s under tsx, longer on a busy machine).
    await waitFor(async () => {
      const answer = await app.app.inject({ url, headers: { authorization: `Bearer ${resident}` } });
      return answer.statusCode === 200 && answer.body.includes(`"v":${value}`);
    }, 20_000);
  };
  return {
    app,
    resident,
    token,
    list,
    byName,
    report,
    until: (name, check) => waitFor(async () => check(await byName(name))),
    recorded,
    close: async () => {
      await app.bus.publish(`${base}/bridge/devices`, '', { retain: true });
      await app.close();
    },
  };
}

/** A plug (on/off, power, a mode) as the recorder and worker tests see it, with `more` capabilities. */
export const testPlug = (more: Record<string, Capability> = {}): Device =>
  ({
    id: 'plug-1',
    capabilities: [
      testCapability('state', 'binary', { metadata: { value_on: 'ON', value_off: 'OFF' } }),
      testCapability('power', 'numeric'),
      testCapability('mode', 'enum', { enum: ['eco', 'boost', 'comfort'] }),
      ...Object.values(more),
    ],
  }) as unknown as Device;

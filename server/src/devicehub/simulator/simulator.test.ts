import type { Device } from '@hearth/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/app.js';
import { sqliteDatabase } from '../../../test/databases.js';
import { TEMPLATES } from './catalog.js';

async function waitFor<T>(probe: () => Promise<T | undefined>, timeoutMs = 20_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** SPEC 2.4's icon rule, applied to what the simulator offers. */
const ICON_WORDS: [string, string[]][] = [
  ['door', ['door', 'contact']],
  ['light', ['light', 'lamp', 'brightness', 'color']],
  ['plug', ['plug', 'socket', 'outlet', 'power']],
  ['thermometer', ['thermo', 'heating', 'temperature']],
  ['humidity', ['humidity']],
  ['battery', ['battery']],
  ['voltage', ['voltage']],
];
const iconOf = (d: Device) => {
  const haystack = [
    d.type,
    d.description,
    d.model,
    d.name,
    d.manufacturer,
    ...d.capabilities.flatMap((c) => [c.id, c.property, c.name]),
  ]
    .join(' ')
    .toLowerCase();
  return ICON_WORDS.find(([, words]) => words.some((w) => haystack.includes(w)))?.[0] ?? 'generic';
};

describe('simulator (SIMULATOR=on)', () => {
  const database = sqliteDatabase();
  let app: TestApp;
  let token: string;
  const list = async (): Promise<Device[]> =>
    (
      await app.app.inject({ url: '/api/devicehub/devices', headers: { authorization: `Bearer ${token}` } })
    ).json();

  beforeAll(async () => {
    app = await startTestApp(database, { SIMULATOR: 'on' });
    const user = await app.context.users.create({
      email: 'sim@example.com',
      userName: 'sim',
      firstName: 'Sim',
      lastName: 'Ulator',
      passwordHash: null,
      role: 'resident',
    });
    token = await app.context.accessTokens.sign({ userId: user.id, role: 'resident' });
  });
  afterAll(async () => {
    await app?.close();
    await database.drop();
  });

  it('brings 24 devices online, covering every icon and binary label', async () => {
    const devices = await waitFor(async () => {
      const all = await list();
      // One device may have dropped off for a while: availability flips now and then.
      return all.length === TEMPLATES.length && all.filter((d) => d.online).length >= all.length - 1
        ? all
        : undefined;
    }).catch((error) => {
      // Show what the hub said, to tell a slow machine from a fault.
      console.log(
        app.logs.lines
          .filter((l) => !l.includes('incoming request') && !l.includes('request completed'))
          .map((l) => l.slice(0, 400)),
      );
      throw error;
    });
    expect(devices.length).toBeGreaterThanOrEqual(24);
    expect(new Set(devices.map(iconOf))).toEqual(
      new Set(['door', 'light', 'plug', 'thermometer', 'humidity', 'battery', 'voltage', 'generic']),
    );
    const properties = new Set(devices.flatMap((d) => d.capabilities.map((c) => c.property)));
    for (const property of [
      'contact',
      'occupancy',
      'presence',
      'water_leak',
      'smoke',
      'tamper',
      'battery_low',
      'vibration',
      'action',
      'voc',
      'power',
      'energy',
      'voltage',
      'position',
      'color',
      'color_temp',
      'effect',
      'occupied_heating_setpoint',
      'state_l1',
    ]) {
      expect(properties, property).toContain(property);
    }
    expect(new Set(devices.map((d) => d.type))).toEqual(
      new Set(['light', 'switch', 'climate', 'lock', 'cover', 'fan', 'sensor', 'remote']),
    );
    expect(
      devices.every((d) => d.protocol === 'zigbee' && d.firmware && Object.keys(d.state).length > 0),
    ).toBe(true);
    expect(app.logs.text).not.toContain('exposes skipped');
  });

  it('obeys and echoes a /set like a real device', async () => {
    const lamp = (await list()).find((d) => d.name === 'Living room lamp')!;
    const response = await app.app.inject({
      method: 'POST',
      url: `/api/devicehub/devices/${lamp.id}/commands`,
      headers: { authorization: `Bearer ${token}` },
      payload: { input: { id: 'color', value: '#FF8800' }, state: { on: true } },
    });
    expect(response.json()).toMatchObject({ success: true });
    const updated = await waitFor(async () => {
      const device = (await list()).find((d) => d.id === lamp.id);
      return device?.state.state === 'ON' && (device.state.color as { hex?: string })?.hex === '#FF8800'
        ? device
        : undefined;
    });
    expect(updated.state.color).toMatchObject({ x: expect.any(Number), y: expect.any(Number) });
  });

  it('renames a device through its bridge API', async () => {
    const blind = (await list()).find((d) => d.name === 'Bedroom blind')!;
    const response = await app.app.inject({
      method: 'PATCH',
      url: `/api/devicehub/devices/${blind.id}`,
      headers: { authorization: `Bearer ${token}` },
      payload: { name: 'Nursery blind' },
    });
    expect(response.json()).toMatchObject({ success: true, data: { id: blind.id, name: 'Nursery blind' } });
    const close = await app.app.inject({
      method: 'POST',
      url: `/api/devicehub/devices/${blind.id}/commands`,
      headers: { authorization: `Bearer ${token}` },
      payload: { input: { id: 'state', value: 'CLOSE' } },
    });
    expect(close.statusCode).toBe(200);
    await waitFor(async () =>
      (await list()).find((d) => d.id === blind.id)?.state.position === 0 ? true : undefined,
    );
  });
});

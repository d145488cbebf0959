import { type Device, deviceIconKind } from '@hearth/contracts';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/app.js';
import { waitFor as poll } from '../../../test/wait.js';
import { TEMPLATES } from './catalog.js';

const waitFor = <T>(probe: () => Promise<T | undefined | false> | T | undefined | false) =>
  poll(probe, 20_000);

describe('simulator (SIMULATOR=on)', () => {
  const t = useTestApp({ env: { SIMULATOR: 'on' } });
  let token: string;
  const list = async (): Promise<Device[]> =>
    (
      await t.app.inject({ url: '/api/devicehub/devices', headers: { authorization: `Bearer ${token}` } })
    ).json();

  beforeAll(async () => {
    token = await t.tokenFor(await t.user('resident'));
  });

  it('brings 24 devices online, covering every icon and binary label', async () => {
    const devices = await waitFor(async () => {
      const all = await list();
      // One device may have dropped off for a while: availability flips now and then. Each
      // device's first state message follows the device list, so wait for those too.
      return all.length === TEMPLATES.length &&
        all.filter((d) => d.online).length >= all.length - 1 &&
        all.every((d) => Object.keys(d.state).length > 0)
        ? all
        : undefined;
    }).catch((error) => {
      // Show what the hub said, to tell a slow machine from a fault.
      console.log(
        t.hearth.logs.lines
          .filter((l) => !l.includes('incoming request') && !l.includes('request completed'))
          .map((l) => l.slice(0, 400)),
      );
      throw error;
    });
    expect(devices.length).toBeGreaterThanOrEqual(24);
    // The web app's own icon rules (docs/screens.md#devices-page), applied to what the simulator offers.
    expect(new Set(devices.map(deviceIconKind))).toEqual(
      new Set(['door', 'light', 'plug', 'thermometer', 'humidity', 'battery', 'voltage', 'device']),
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
    expect(t.hearth.logs.text).not.toContain('exposes skipped');
  });

  it('obeys and echoes a /set like a real device', async () => {
    const lamp = (await list()).find((d) => d.name === 'Living room lamp')!;
    const response = await t.app.inject({
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
    const response = await t.app.inject({
      method: 'PATCH',
      url: `/api/devicehub/devices/${blind.id}`,
      headers: { authorization: `Bearer ${token}` },
      payload: { name: 'Nursery blind' },
    });
    expect(response.json()).toMatchObject({ success: true, data: { id: blind.id, name: 'Nursery blind' } });
    const close = await t.app.inject({
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

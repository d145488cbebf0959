import { describe, expect, it } from 'vitest';
import { testDatabases } from '../../test/databases.js';
import { byName, startHousehold, testBuses, useHousehold, waitFor } from './devicehub-test-kit.js';

const buses = testBuses();

describe.each(buses)('device hub with Zigbee2MQTT on the $name', ({ url }) => {
  const h = useHousehold({ bus: url });
  const call = h.call;

  it('lists the devices of bridge/devices over REST, without the coordinator or devices still interviewing', async () => {
    const devices = await waitFor(async () => {
      const list = await h.list();
      return list.length === 4 ? list : undefined;
    });
    expect(devices.map((d) => d.name).sort()).toEqual([
      'Front door',
      'Kitchen remote',
      'Living room/Lamp',
      'Stairs switch',
    ]);
    const lamp = byName(devices, 'Living room/Lamp')!;
    expect(lamp).toMatchObject({
      external_id: '0x0017880104e45517',
      protocol: 'zigbee',
      manufacturer: 'Philips',
      model: '9290022166',
      type: 'light',
      firmware: '1.88.1',
      description: 'Hue white and color ambiance E26/E27',
      online: false,
    });
    expect(lamp.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(lamp.inputs.map((i) => `${i.id}:${i.type}`)).toEqual([
      'state:toggle',
      'brightness:slider',
      'color_temp:slider',
      'color:color',
      'effect:select',
      'power_on_behavior:select',
    ]);
    expect(byName(devices, 'Front door')).toMatchObject({
      description: 'Main entrance',
      type: 'sensor',
      inputs: [],
    });
  });

  it('lists nothing to a user without access rules (docs/access.md#defaults) and refuses a signed-out caller (401)', async () => {
    const user = await h.token('user');
    const listed = await call('GET', '/api/devicehub/devices', undefined, user);
    expect(listed.statusCode).toBe(200);
    expect(listed.json()).toEqual([]);
    expect((await h.app.app.inject({ url: '/api/devicehub/devices' })).statusCode).toBe(401);
    const admin = await h.token('admin');
    expect((await call('GET', '/api/devicehub/devices', undefined, admin)).statusCode).toBe(200);
  });

  it('shows state, last_seen and availability (JSON and legacy payloads)', async () => {
    await h.z2m.publish('Front door', { contact: false, battery: 87, last_seen: '2026-11-21T10:00:00.000Z' });
    await h.z2m.publish('Front door/availability', { state: 'online' }, true);
    await h.z2m.publish('Stairs switch/availability', 'online', true);
    const door = await waitFor(async () => {
      const d = byName(await h.list(), 'Front door');
      return d?.online && d.state.battery === 87 ? d : undefined;
    });
    expect(door.state).toMatchObject({ contact: false, battery: 87 });
    expect(door.last_seen).toBe('2026-11-21T10:00:00.000Z');
    await waitFor(async () => byName(await h.list(), 'Stairs switch')?.online);
    await h.z2m.publish('Stairs switch/availability', 'offline', true);
    await waitFor(async () => byName(await h.list(), 'Stairs switch')?.online === false);
  });

  it('sends a command to <friendly_name>/set with the payload Zigbee2MQTT expects', async () => {
    const lamp = byName(await h.list(), 'Living room/Lamp')!;
    const brightness = await call('POST', `/api/devicehub/devices/${lamp.id}/commands`, {
      input: { id: 'brightness', value: 128 },
      state: { on: true },
    });
    expect(brightness.statusCode).toBe(200);
    expect(brightness.json()).toMatchObject({ success: true, error: null });
    await call('POST', `/api/devicehub/devices/${lamp.id}/commands`, {
      input: { id: 'color', value: '#ff8800' },
      state: { on: true },
    });
    const stairs = byName(await h.list(), 'Stairs switch')!;
    await call('POST', `/api/devicehub/devices/${stairs.id}/commands`, {
      input: { id: 'state_left', value: false },
    });
    await waitFor(() => h.z2m.sets.length >= 3 || undefined);
    expect(h.z2m.sets).toEqual([
      { name: 'Living room/Lamp', payload: { brightness: 128, state: 'ON' } },
      { name: 'Living room/Lamp', payload: { color: { hex: '#FF8800' }, state: 'ON' } },
      { name: 'Stairs switch', payload: { state_left: 'OFF' } },
    ]);
  });

  it('answers bad commands with the messages of docs/strings.md#devices', async () => {
    const lamp = byName(await h.list(), 'Living room/Lamp')!;
    const path = `/api/devicehub/devices/${lamp.id}/commands`;
    const cases: [unknown, number, string][] = [
      [{}, 400, 'Missing command payload'],
      [
        { input: { id: 'brightness', value: 'lots' } },
        400,
        'Invalid command payload: brightness must be a number',
      ],
      [{ input: { id: 'linkquality', value: 1 } }, 400, 'Invalid command payload'],
    ];
    for (const [body, status, error] of cases) {
      const response = await call('POST', path, body);
      expect([response.statusCode, response.json()]).toEqual([status, { success: false, data: null, error }]);
    }
    const empty = await call('POST', path);
    expect([empty.statusCode, empty.json().error]).toEqual([400, 'Missing command payload']);
    const notJson = await h.app.app.inject({
      method: 'POST',
      url: path,
      headers: { authorization: `Bearer ${h.resident}`, 'content-type': 'application/json' },
      payload: '{"input":',
    });
    expect([notJson.statusCode, notJson.json().error]).toEqual([400, 'Invalid command payload']);
    const unknown = await call('POST', '/api/devicehub/devices/no-such-device/commands', {
      state: { on: true },
    });
    expect([unknown.statusCode, unknown.json().error]).toEqual([404, 'Device not found']);
  });

  it('renames through bridge/request/device/rename and keeps the id', async () => {
    const door = byName(await h.list(), 'Front door')!;
    const response = await call('PATCH', `/api/devicehub/devices/${door.id}`, { name: '  Back door ' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      success: true,
      error: null,
      data: { id: door.id, name: 'Back door' },
    });
    const renamed = byName(await h.list(), 'Back door');
    expect(renamed?.id).toBe(door.id);
    expect(byName(await h.list(), 'Front door')).toBeUndefined();
    // State keeps flowing under the new friendly name.
    await h.z2m.publish('Back door', { contact: true, battery: 86 });
    await waitFor(async () => byName(await h.list(), 'Back door')?.state.battery === 86);
  });

  it('refuses an empty name, an unknown device, and answers 504 when Zigbee2MQTT stays silent', async () => {
    const lamp = byName(await h.list(), 'Living room/Lamp')!;
    const empty = await call('PATCH', `/api/devicehub/devices/${lamp.id}`, { name: '   ' });
    expect([empty.statusCode, empty.json()]).toEqual([
      400,
      { success: false, data: null, error: 'Name cannot be empty' },
    ]);
    const unknown = await call('PATCH', '/api/devicehub/devices/nope', { name: 'x' });
    expect(unknown.statusCode).toBe(404);
    for (const name of ['x'.repeat(129), 'Hall/#', 'Hall//Lamp', 'bridge/config']) {
      const refused = await call('PATCH', `/api/devicehub/devices/${lamp.id}`, { name });
      expect([refused.statusCode, refused.json().error]).toEqual([
        400,
        'Name cannot contain "#", "+" or control characters, or be longer than 128 characters',
      ]);
    }
    h.z2m.answerRenames = false;
    const started = Date.now();
    const silent = await call('PATCH', `/api/devicehub/devices/${lamp.id}`, { name: 'Reading lamp' });
    h.z2m.answerRenames = true;
    expect(silent.statusCode).toBe(504);
    expect(Date.now() - started).toBeGreaterThanOrEqual(4900);
    expect(byName(await h.list(), 'Living room/Lamp')).toBeDefined();
  });

  it('skips bad messages, logging each once, and keeps every other device', async () => {
    const before = await h.list();
    await h.z2m.publish('Living room/Lamp', '{"state": "ON"');
    await h.z2m.publish('Living room/Lamp', '{"state": "ON"');
    await h.z2m.publish('Living room/Lamp', '[1,2,3]');
    await h.z2m.publish('Stairs switch', Buffer.alloc(1024 * 1024, 0x20));
    await h.z2m.publish('Stairs switch/availability', '{"state": 3}');
    await h.z2m.publish('bridge/event', 'not json');
    await h.z2m.publish('bridge/devices', '{"not": "a list"}');
    await h.z2m.publish('Kitchen remote', { battery: 55 });
    await waitFor(async () => byName(await h.list(), 'Kitchen remote')?.state.battery === 55);
    expect((await h.list()).map((d) => d.id).sort()).toEqual(before.map((d) => d.id).sort());
    const notJsonLines = h.app.logs.lines.filter(
      (l) => l.includes('not JSON') && l.includes('Living room/Lamp'),
    );
    expect(notJsonLines).toHaveLength(1);
    expect(h.app.logs.text).toContain('too large');
    expect(h.app.logs.text).toContain('not a JSON object');
    expect(h.app.bus.connected).toBe(true);
  });

  it('takes the same list twice without changes, and removes devices that leave', async () => {
    await h.z2m.publishDevices();
    const before = await h.list();
    await h.z2m.publishDevices();
    const remote = byName(before, 'Kitchen remote')!;
    await h.z2m.publish('bridge/event', {
      type: 'device_leave',
      data: { ieee_address: remote.external_id, friendly_name: remote.name },
    });
    await waitFor(async () => (byName(await h.list(), 'Kitchen remote') ? undefined : true));
    // A list that shrinks removes what is missing from it.
    h.z2m.devices = h.z2m.devices.filter(
      (d) => d.friendly_name !== 'Stairs switch' && d.friendly_name !== 'Kitchen remote',
    );
    await h.z2m.publishDevices();
    const after = await waitFor(async () => {
      const list = await h.list();
      return list.length === 2 ? list : undefined;
    });
    expect(after.map((d) => d.name).sort()).toEqual(['Back door', 'Living room/Lamp']);
    expect(after.map((d) => d.updated_at)).toEqual(
      before.filter((d) => after.some((a) => a.id === d.id)).map((d) => d.updated_at),
    );
  });
});

describe.each(testDatabases())('device registry on $name', ({ name, create }) => {
  // On PostgreSQL, which instances share, an instance starts from the registry's online flags
  // (docs/devicehub.md#several-instances); on SQLite every device is offline until the bus says otherwise.
  it('survives a restart: same ids and names, the last state, online as the bus (PostgreSQL: the registry) says', async () => {
    const database = await create();
    try {
      const first = await startHousehold(database, undefined);
      await first.household.z2m.publishDevices();
      await waitFor(async () => ((await first.household.list()).length === 4 ? true : undefined));
      await first.household.z2m.publish('Front door', { contact: true, battery: 64 });
      await first.household.z2m.publish('Front door/availability', { state: 'online' }, true);
      const before = await waitFor(async () => {
        const door = byName(await first.household.list(), 'Front door');
        return door?.online && door.state.battery === 64 ? door : undefined;
      });
      await first.household.close();

      // A fresh embedded broker: nothing retained, Zigbee2MQTT not talking yet.
      const second = await startHousehold(database, undefined, { base: first.base, prefix: first.prefix });
      try {
        const devices = await second.household.list();
        expect(devices).toHaveLength(4);
        const door = byName(devices, 'Front door')!;
        expect(door).toMatchObject({
          id: before.id,
          online: name === 'postgres',
          state: { contact: true, battery: 64 },
        });
        expect(door.last_seen).toBe(before.last_seen);
        expect(door.capabilities).toEqual(before.capabilities);
        await second.household.z2m.publishDevices();
        await second.household.z2m.publish('Front door/availability', { state: 'online' }, true);
        await waitFor(async () => byName(await second.household.list(), 'Front door')?.online);
        expect(byName(await second.household.list(), 'Front door')!.id).toBe(before.id);
      } finally {
        await second.household.close();
      }
    } finally {
      await database.drop();
    }
  });
});

import { ACCESS_MESSAGES, type Device, type Room } from '@hearth/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../../test/databases.js';
import {
  commandFor,
  eventually,
  openStream,
  type StreamView,
  simulatedDevices,
  stateFor,
  useStreamTestApp,
} from '../../test/device-stream.js';
import type { UserRecord } from '../users/index.js';

const DEVICES = 6;

/**
 * docs/access.md#where-it-is-enforced, acceptance 1 of issue 15: a `user` with rules, over REST and
 * over the stream (MQTT.js like a browser), on both databases.
 */
describe.each(testDatabases())('access rules enforced over REST and the stream on $name', ({ create }) => {
  const { t, prefix } = useStreamTestApp(create, DEVICES, 'access');
  let admin: UserRecord;
  let origin: string;
  let devices: Device[];
  let inA: Device[];
  let inB: Device[];
  let roomA: Room;
  let roomB: Room;
  const streams: StreamView[] = [];

  const list = async (user: UserRecord): Promise<Device[]> =>
    (await t.call(user, 'GET', '/api/devicehub/devices')).body;
  const ids = (items: { id: string }[]) => items.map((d) => d.id).sort();
  const rules = (user: UserRecord, body: object) => t.call(admin, 'PUT', `/api/access/${user.id}`, body);
  const stream = async (user: UserRecord) => {
    const view = await openStream(origin, prefix, await t.tokenFor(user));
    streams.push(view);
    return view;
  };
  const command = (user: UserRecord, device: Device) =>
    t.call(user, 'POST', `/api/devicehub/devices/${device.id}/commands`, commandFor(device));

  beforeAll(async () => {
    admin = await t.user('admin');
    devices = await simulatedDevices(t, admin, DEVICES);
    // Devices the tests command take a toggle; they come first in each room.
    const toggles = devices.filter((d) => d.inputs.some((i) => i.type === 'toggle'));
    const others = devices.filter((d) => !toggles.includes(d));
    const ordered = [...toggles, ...others];
    inA = [ordered[0]!, ordered[2]!];
    inB = [ordered[1]!, ordered[3]!];
    roomA = (await t.call(admin, 'POST', '/api/rooms', { name: 'Nursery' })).body;
    roomB = (await t.call(admin, 'POST', '/api/rooms', { name: 'Boiler room' })).body;
    await t.call(admin, 'PUT', `/api/rooms/${roomA.id}/devices`, { device_ids: ids(inA) });
    await t.call(admin, 'PUT', `/api/rooms/${roomB.id}/devices`, { device_ids: ids(inB) });
    origin = await t.hearth.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(() => {
    for (const view of streams) view.end();
  });

  it('a user with view on one room lists just its devices, gets just their state, and cannot command them', async () => {
    const user = await t.user('user');
    expect(await list(user)).toEqual([]);
    expect((await rules(user, { rooms: { [roomA.id]: 'view' } })).status).toBe(200);
    const listed = await list(user);
    expect(ids(listed)).toEqual(ids(inA));
    expect(listed.every((d) => d.access === 'view')).toBe(true);
    // ?ids= and ?first= list within the reach too.
    const byIds = (
      await t.call(user, 'GET', `/api/devicehub/devices?ids=${devices.map((d) => d.id).join(',')}`)
    ).body;
    expect(ids(byIds)).toEqual(ids(inA));
    expect(ids((await t.call(user, 'GET', '/api/devicehub/devices?first=500')).body)).toEqual(ids(inA));

    const view = await stream(user);
    await eventually(() => ids([...view.devices.keys()].map((id) => ({ id }))).join() === ids(inA).join());
    await new Promise((r) => setTimeout(r, 200));
    expect([...view.devices.keys()].sort()).toEqual(ids(inA));

    const lamp = inA[0]!;
    expect(await command(user, lamp)).toEqual({
      status: 403,
      body: { success: false, data: null, error: ACCESS_MESSAGES.viewOnly },
    });
    await view.publish('device.set', { device_id: lamp.id, state: { state: 'ON' } });
    await eventually(() => view.refusals.length === 1);
    expect(view.refusals).toEqual([{ kind: 'refused', device_id: lamp.id, error: ACCESS_MESSAGES.viewOnly }]);
    // Rooms: only those holding a device the user may view.
    expect((await t.call(user, 'GET', '/api/rooms')).body.rooms.map((r: Room) => r.id)).toEqual([roomA.id]);
  });

  it('with control, commands pass over REST and the stream (after a rule change)', async () => {
    const user = await t.user('user');
    await rules(user, { rooms: { [roomA.id]: 'view' } });
    const view = await stream(user);
    await eventually(() => view.devices.size === inA.length);
    await rules(user, { rooms: { [roomA.id]: 'control' } });
    await eventually(() => [...view.devices.values()].every((d) => d.access === 'control'), 2000);
    const lamp = inA[0]!;
    expect(await command(user, lamp)).toEqual({
      status: 200,
      body: { success: true, data: { device_id: lamp.id, status: 'sent' }, error: null },
    });
    const mark = view.messages.length;
    await view.publish('device.set', { device_id: lamp.id, ...stateFor(lamp) });
    await view.publish('device.set', { device_id: lamp.id, state: { nonsense_property: 1 } });
    // The second is refused by the device's own rules, not by access: the first went through.
    await eventually(() => view.refusals.length === 1);
    expect(view.refusals[0]?.error).toMatch(/^Invalid command payload/);
    expect(view.messages.length).toBeGreaterThanOrEqual(mark);
    await t.hearth.activity.flush();
    const log = (await t.call(admin, 'GET', `/api/activity?kind=device.command&actor=${user.id}`)).body
      .entries;
    // REST's, the stream's, and the invalid one (the stream's two may finish in either order).
    expect(log.map((e: { result: string }) => e.result).sort()).toEqual(['ok', 'ok', 'refused']);
  });

  it('takes a device away within 2 s when its rule is removed, and brings it back with its state', async () => {
    const user = await t.user('user');
    const [one, two] = inA as [Device, Device];
    await rules(user, { devices: { [one.id]: 'control', [two.id]: 'view' } });
    const view = await stream(user);
    await eventually(() => view.devices.size === 2);
    let start = Date.now();
    await rules(user, { devices: { [one.id]: 'control' } });
    await eventually(() => !view.devices.has(two.id), 2000);
    expect(Date.now() - start).toBeLessThan(2000);
    expect(view.devices.has(one.id)).toBe(true);
    start = Date.now();
    await rules(user, { devices: { [one.id]: 'control' }, rooms: { [roomB.id]: 'view' } });
    await eventually(() => inB.every((d) => view.devices.get(d.id)?.state !== undefined), 2000);
    expect(inB.map((d) => view.devices.get(d.id)?.access)).toEqual(['view', 'view']);
    // The connection stayed open all along.
    expect(view.client.connected).toBe(true);
  });

  it('follows a room assignment: a device moved into a room the user may view arrives, moved out it goes', async () => {
    const user = await t.user('user');
    await rules(user, { rooms: { [roomA.id]: 'view' } });
    const view = await stream(user);
    await eventually(() => view.devices.size === inA.length);
    const moving = inB[1]!;
    await t.call(admin, 'PUT', `/api/rooms/${roomA.id}/devices`, { device_ids: [moving.id] });
    await eventually(() => view.devices.get(moving.id)?.state !== undefined, 2000);
    expect(ids(await list(user))).toEqual(ids([...inA, moving]));
    await t.call(admin, 'PUT', `/api/rooms/${roomB.id}/devices`, { device_ids: [moving.id] });
    await eventually(() => !view.devices.has(moving.id), 2000);
    expect(ids(await list(user))).toEqual(ids(inA));
  });

  it('refuses and logs a command with a spoofed device_id for a device out of reach', async () => {
    const user = await t.user('user');
    await rules(user, { rooms: { [roomA.id]: 'control' } });
    const view = await stream(user);
    await eventually(() => view.devices.size === inA.length);
    const heater = inB[0]!;
    expect(await command(user, heater)).toEqual({
      status: 404,
      body: { success: false, data: null, error: ACCESS_MESSAGES.deviceNotFound },
    });
    await view.publish('device.set', { device_id: heater.id, state: { state: 'ON' } });
    await view.publish('device.rename', { device_id: heater.id, name: 'Mine now' });
    await eventually(() => view.refusals.length === 2);
    expect(view.refusals).toEqual([
      { kind: 'refused', device_id: heater.id, error: ACCESS_MESSAGES.deviceNotFound },
      { kind: 'refused', device_id: heater.id, error: ACCESS_MESSAGES.deviceNotFound },
    ]);
    // A user may not rename even what it controls.
    expect(
      (await t.call(user, 'PATCH', `/api/devicehub/devices/${inA[0]!.id}`, { name: 'x' })).body.error,
    ).toBe(ACCESS_MESSAGES.managersOnly);
    await t.hearth.activity.flush();
    const entries = (await t.call(admin, 'GET', `/api/activity?actor=${user.id}&device_id=${heater.id}`)).body
      .entries;
    expect(entries.map((e: { kind: string; result: string }) => [e.kind, e.result]).sort()).toEqual([
      ['device.command', 'refused'],
      ['device.command', 'refused'],
      ['device.rename', 'refused'],
    ]);
    expect((await list(admin)).find((d) => d.id === heater.id)?.name).not.toBe('Mine now');
  });

  it('refuses a user without rules at CONNECT; residents and admins without rules see and control everything', async () => {
    const user = await t.user('user');
    await expect(stream(user)).rejects.toThrow();
    const resident = await t.user('resident');
    const listed = await list(resident);
    expect(ids(listed)).toEqual(ids(devices));
    expect(listed.every((d) => d.access === 'control')).toBe(true);
    const view = await stream(resident);
    await eventually(() => view.devices.size === DEVICES);
    // An admin narrows the resident: the boiler room goes from their open stream.
    await rules(resident, { rooms: { [roomB.id]: 'none' } });
    await eventually(() => inB.every((d) => !view.devices.has(d.id)), 2000);
    // Nor does the activity log show them what happened to those devices (docs/activity.md#who-sees-what).
    await t.hearth.activity.flush();
    const about = `/api/activity?device_id=${inB[0]!.id}`;
    expect((await t.call(admin, 'GET', about)).body.entries.length).toBeGreaterThan(0);
    expect((await t.call(resident, 'GET', about)).body.entries).toEqual([]);
    expect(ids(await list(resident))).toEqual(ids(devices.filter((d) => !inB.includes(d))));
    await rules(resident, {});
    await eventually(() => inB.every((d) => view.devices.has(d.id)), 2000);
  });
});

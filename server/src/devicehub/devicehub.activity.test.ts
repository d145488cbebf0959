import type { ActivityEntry, ActivityKind, Device } from '@hearth/contracts';
import type { MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccountsClient, person } from '../../test/accounts-client.js';
import { accessToken, createUser } from '../../test/app.js';
import { testDatabases } from '../../test/databases.js';
import type { UserRecord } from '../users/index.js';
import { byName, streamClient, useHousehold, waitFor } from './devicehub-test-kit.js';

// docs/activity.md#kinds: every action that exists leaves exactly one entry, with the right actor
// and result (both databases, the embedded broker, a scripted Zigbee2MQTT). Here beside the hub,
// whose test kit it uses; the rooms, users and sign-in entries are read through the same API.
describe.each(testDatabases())('activity recorded on $name', ({ create }) => {
  const h = useHousehold({ database: create, browsers: true });
  let admin: UserRecord;
  let adminToken: string;
  let stream: MqttClient | undefined;
  const api = new AccountsClient(() => h.app.app);

  beforeAll(async () => {
    admin = await createUser(h.app, 'admin');
    adminToken = await accessToken(h.app, admin);
  });
  afterAll(() => stream?.end(true));

  const call = async (
    method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE',
    url: string,
    payload?: unknown,
    token = adminToken,
  ) => {
    const response = await h.app.app.inject({
      method,
      url,
      headers: { authorization: `Bearer ${token}`, 'user-agent': 'ActivityTest/1.0' },
      ...(payload !== undefined ? { payload: payload as object } : {}),
    });
    return { status: response.statusCode, body: response.body ? response.json() : undefined };
  };
  let since = new Date(0).toISOString();
  /** The entries recorded since the last call, oldest first. */
  const recorded = async (kind?: ActivityKind): Promise<ActivityEntry[]> => {
    const answer = await call('GET', `/api/activity?from=${since}${kind ? `&kind=${kind}` : ''}`);
    expect(answer.status).toBe(200);
    return (answer.body.entries as ActivityEntry[]).reverse();
  };
  const mark = () => {
    since = new Date().toISOString();
  };
  const adminActor = () => ({ type: 'user', id: admin.id, label: `${admin.firstName} ${admin.lastName}` });
  const device = async (name: string): Promise<Device> => byName(await h.list(), name)!;

  it('records the devices that joined as Hearth', async () => {
    const joined = await recorded('device.joined');
    expect(joined.map((e) => e.detail.name).sort()).toEqual(
      ['Front door', 'Kitchen remote', 'Living room/Lamp', 'Stairs switch'].sort(),
    );
    expect(joined.every((e) => e.actor.type === 'system' && e.result === 'ok' && e.device_id)).toBe(true);
  });

  it('records a command over REST, and a refused one, once each', async () => {
    const lamp = await device('Living room/Lamp');
    mark();
    expect(
      (await call('POST', `/api/devicehub/devices/${lamp.id}/commands`, { state: { on: true } })).status,
    ).toBe(200);
    expect(
      (await call('POST', '/api/devicehub/devices/no-such-device/commands', { state: { on: true } })).status,
    ).toBe(404);
    const entries = await recorded();
    expect(entries).toEqual([
      expect.objectContaining({
        kind: 'device.command',
        actor: adminActor(),
        device_id: lamp.id,
        client: 'ActivityTest/1.0',
        ip: '127.0.0.1',
        detail: { name: 'Living room/Lamp', state: { on: true } },
        result: 'ok',
      }),
      expect.objectContaining({
        kind: 'device.command',
        device_id: 'no-such-device',
        result: 'refused',
        detail: { state: { on: true }, reason: 'Device not found' },
      }),
    ]);
  });

  it('records a rename over REST once', async () => {
    const door = await device('Front door');
    mark();
    expect((await call('PATCH', `/api/devicehub/devices/${door.id}`, { name: 'Back door' })).status).toBe(
      200,
    );
    expect(await recorded()).toEqual([
      expect.objectContaining({
        kind: 'device.rename',
        actor: adminActor(),
        device_id: door.id,
        detail: { name: 'Front door', to: 'Back door' },
        result: 'ok',
      }),
    ]);
  });

  it('records commands and renames sent over the device stream, refused ones too', async () => {
    const lamp = await device('Living room/Lamp');
    const door = await device('Back door');
    const browser = await streamClient(h.wsUrl, adminToken, h.prefix);
    stream = browser.client;
    mark();
    await browser.client.publishAsync(
      `${h.prefix}/devicehub/commands/device.set`,
      JSON.stringify({ device_id: lamp.id, state: { brightness: 40 } }),
    );
    await browser.client.publishAsync(
      `${h.prefix}/devicehub/commands/device.rename`,
      JSON.stringify({ device_id: door.id, name: 'Front door' }),
    );
    await browser.client.publishAsync(
      `${h.prefix}/devicehub/commands/device.set`,
      JSON.stringify({ device_id: 'missing', state: { on: true } }),
    );
    const entries = await waitFor(async () => {
      const found = await recorded();
      return found.length >= 3 ? found : undefined;
    });
    expect(entries).toHaveLength(3);
    const set = entries.find((e) => e.kind === 'device.command' && e.device_id === lamp.id);
    expect(set).toMatchObject({
      actor: adminActor(),
      result: 'ok',
      detail: { state: { brightness: 40 }, via: 'stream' },
    });
    const rename = entries.find((e) => e.kind === 'device.rename');
    expect(rename).toMatchObject({
      device_id: door.id,
      result: 'ok',
      detail: { to: 'Front door', via: 'stream' },
    });
    const missing = entries.find((e) => e.device_id === 'missing');
    expect(missing).toMatchObject({
      kind: 'device.command',
      result: 'refused',
      detail: { reason: 'Device not found' },
    });
  });

  it('records room changes: create, rename, assign, unassign, delete', async () => {
    const lamp = await device('Living room/Lamp');
    mark();
    const created = await call('POST', '/api/rooms', { name: 'Study' });
    expect(created.status).toBe(201);
    const room = created.body.id as string;
    expect((await call('PATCH', `/api/rooms/${room}`, { name: 'Office' })).status).toBe(200);
    expect((await call('PUT', `/api/rooms/${room}/devices`, { device_ids: [lamp.id] })).status).toBe(200);
    expect((await call('PUT', '/api/rooms/unassigned/devices', { device_ids: [lamp.id] })).status).toBe(200);
    expect((await call('DELETE', `/api/rooms/${room}`)).status).toBe(204);
    expect((await call('DELETE', `/api/rooms/${room}`)).status).toBe(404);
    const entries = await recorded();
    expect(entries.map((e) => [e.kind, e.room_id, e.result])).toEqual([
      ['room.create', room, 'ok'],
      ['room.rename', room, 'ok'],
      ['room.assign', room, 'ok'],
      ['room.assign', undefined, 'ok'],
      ['room.delete', room, 'ok'],
      ['room.delete', room, 'refused'],
    ]);
    expect(entries[0]!.detail).toEqual({ name: 'Study' });
    expect(entries[2]).toMatchObject({ device_id: lamp.id, detail: { device_ids: [lamp.id], count: 1 } });
    expect(entries.every((e) => e.actor.id === admin.id)).toBe(true);
  });

  it('records sign-ins, failed ones with the attempted e-mail and never the password', async () => {
    const who = person();
    const { id } = await api.signup(who);
    mark();
    await api.login(who);
    expect(
      (await api.post('/login/start', { email: who.email, password: 'wrong password here' })).statusCode,
    ).toBe(401);
    expect(
      (await api.post('/login/start', { email: 'nobody@example.com', password: 'whatever it is' }))
        .statusCode,
    ).toBe(401);
    const entries = await recorded('sign_in');
    expect(entries.map((e) => [e.actor.id, e.actor.label, e.result, e.detail.email])).toEqual([
      [id, `${who.first_name} ${who.last_name}`, 'ok', who.email],
      [id, `${who.first_name} ${who.last_name}`, 'refused', who.email],
      [undefined, 'nobody@example.com', 'refused', 'nobody@example.com'],
    ]);
    const text = JSON.stringify(entries);
    expect(text).not.toContain(who.password);
    expect(text).not.toContain('wrong password here');
    expect(entries[1]!.detail.reason).toBe('Invalid email or password');
  });

  it('records lock, unlock and role changes, refused ones too', async () => {
    const target = await createUser(h.app, 'user');
    const resident = await createUser(h.app, 'resident');
    mark();
    expect((await call('POST', `/api/auth/users/${target.id}/lockout`, { lock: true })).status).toBe(200);
    expect((await call('POST', `/api/auth/users/${target.id}/lockout`, { lock: false })).status).toBe(200);
    expect((await call('PATCH', `/api/auth/users/${target.id}`, { role: 'resident' })).status).toBe(200);
    // Names alone are not an activity entry.
    expect((await call('PATCH', `/api/auth/users/${target.id}`, { first_name: 'Renamed' })).status).toBe(200);
    // A resident may not make anyone an admin.
    const refused = await call(
      'PATCH',
      `/api/auth/users/${target.id}`,
      { role: 'admin' },
      await accessToken(h.app, resident),
    );
    expect(refused.status).toBe(403);
    const entries = await recorded();
    expect(entries.map((e) => [e.kind, e.actor.id, e.detail.user_id, e.result])).toEqual([
      ['user.lock', admin.id, target.id, 'ok'],
      ['user.unlock', admin.id, target.id, 'ok'],
      ['user.role', admin.id, target.id, 'ok'],
      ['user.role', resident.id, target.id, 'refused'],
    ]);
    expect(entries[2]!.detail).toMatchObject({ role: 'resident', email: target.email });
  });

  it('records devices going offline and coming back, and leaving', async () => {
    const lamp = await device('Living room/Lamp');
    // The first availability heard since the start is not an event.
    await h.z2m.publish('Living room/Lamp/availability', { state: 'online' }, true);
    await waitFor(async () => ((await device('Living room/Lamp')).online ? true : undefined));
    mark();
    await h.z2m.publish('Living room/Lamp/availability', { state: 'offline' }, true);
    await waitFor(async () => (!(await device('Living room/Lamp')).online ? true : undefined));
    await h.z2m.publish('Living room/Lamp/availability', { state: 'online' }, true);
    await waitFor(async () => ((await device('Living room/Lamp')).online ? true : undefined));
    const remote = await device('Kitchen remote');
    await h.z2m.publish('bridge/event', { type: 'device_leave', data: { ieee_address: remote.external_id } });
    await waitFor(async () => ((await h.list()).some((d) => d.id === remote.id) ? undefined : true));
    const entries = await waitFor(async () => {
      const found = await recorded();
      return found.length >= 3 ? found : undefined;
    });
    expect(entries.map((e) => [e.kind, e.device_id, e.actor.type])).toEqual([
      ['device.offline', lamp.id, 'system'],
      ['device.back', lamp.id, 'system'],
      ['device.left', remote.id, 'system'],
    ]);
  });
});

import type { ActivityEntry, Device, Floor, Room } from '@hearth/contracts';
import { beforeAll, describe, expect, it } from 'vitest';
import { type TestContext, useTestApp } from '../../test/app.js';
import { testDatabases } from '../../test/databases.js';
import { waitFor } from '../../test/wait.js';

type UserRecord = Awaited<ReturnType<TestContext['user']>>;

/** The simulator's first 20 devices reach the Front door lock. */
const SIMULATED_DEVICES = 20;

/**
 * docs/activity.md#who-sees-what (issue 32 item 8): what an entry names is filtered by the viewer's
 * reach, not only its subject. A resident narrowed away from a room (the Vault) reads nothing of the
 * Vault, its devices or a floor holding only it; a `user` reads their own refused command without
 * the device they may not view.
 */
describe.each(testDatabases())('the activity log within reach on $name', ({ create }) => {
  const t = useTestApp({
    database: create,
    env: { SIMULATOR: 'on', SIMULATOR_DEVICES: String(SIMULATED_DEVICES) },
  });
  let admin: UserRecord;
  let nres: UserRecord;
  let usr: UserRecord;
  let office: Room;
  let hall: Room;
  let upstairs: Floor;
  let lock: Device;
  let lamp: Device;
  let plug: Device;
  /** What must never reach the narrowed resident: ids and names. */
  let hidden: string[];

  const entriesOf = async (user: UserRecord, query = ''): Promise<ActivityEntry[]> => {
    const answer = await t.call(user, 'GET', `/api/activity?limit=100${query}`);
    expect(answer.status).toBe(200);
    return answer.body.entries;
  };
  const exportOf = async (user: UserRecord) =>
    (
      await t.app.inject({
        url: '/api/activity/export',
        headers: { authorization: `Bearer ${await t.tokenFor(user)}` },
      })
    ).body;
  const leaks = (text: string) => hidden.filter((secret) => text.includes(secret));

  beforeAll(async () => {
    admin = await t.user('admin');
    const devices: Device[] = await waitFor(async () => {
      const list: Device[] = (await t.call(admin, 'GET', '/api/devicehub/devices')).body;
      return list.length === SIMULATED_DEVICES && list;
    });
    const named = (name: string) => devices.find((device) => device.name === name)!;
    [lock, lamp, plug] = [named('Front door lock'), named('Living room lamp'), named('Coffee machine plug')];
    upstairs = (await t.call(admin, 'POST', '/api/floors', { name: 'Attic level' })).body;
    office = (await t.call(admin, 'POST', '/api/rooms', { name: 'Vault', floor_id: upstairs.id })).body;
    hall = (await t.call(admin, 'POST', '/api/rooms', { name: 'Hall' })).body;
    await t.call(admin, 'PATCH', `/api/floors/${upstairs.id}`, { name: 'Loft level' });
    await t.call(admin, 'PATCH', `/api/rooms/${office.id}`, { name: 'Strongroom' });
    await t.call(admin, 'PUT', `/api/rooms/${office.id}/devices`, { device_ids: [lock.id, lamp.id] });
    await t.call(admin, 'PUT', `/api/rooms/${hall.id}/devices`, { device_ids: [plug.id] });
    // Out of every room and back: an entry without a room naming hidden and visible devices.
    await t.call(admin, 'PUT', '/api/rooms/unassigned/devices', { device_ids: [lock.id, plug.id] });
    await t.call(admin, 'PUT', `/api/rooms/${office.id}/devices`, { device_ids: [lock.id] });
    await t.call(admin, 'PUT', `/api/rooms/${hall.id}/devices`, { device_ids: [plug.id] });

    nres = await t.user('resident');
    usr = await t.user('user');
    await t.call(admin, 'PUT', `/api/access/${nres.id}`, { rooms: { [office.id]: 'none' } });
    await t.call(admin, 'PUT', `/api/access/${usr.id}`, {
      rooms: { [office.id]: 'view', [hall.id]: 'view' },
    });
    await t.call(admin, 'PUT', `/api/access/${usr.id}`, { rooms: { [hall.id]: 'view' } });
    const pass = {
      label: 'Cleaner',
      level: 'view',
      rooms: [office.id, hall.id],
      devices: [lock.id, plug.id],
      ends_at: new Date(Date.now() + 86_400_000).toISOString(),
    };
    expect((await t.call(admin, 'POST', '/api/passes', pass)).status).toBe(201);
    await t.call(admin, 'PUT', '/api/favourites', { device_ids: [lock.id, plug.id] });
    await t.call(admin, 'POST', `/api/devicehub/devices/${lock.id}/commands`, { state: { state: 'LOCK' } });
    // The user tries the lock they may not view: refused, and their own entry.
    await t.call(usr, 'POST', `/api/devicehub/devices/${lock.id}/commands`, { state: { state: 'UNLOCK' } });
    await t.hearth.activity.flush();
    hidden = [
      office.id,
      lock.id,
      lamp.id,
      upstairs.id,
      'Vault',
      'Strongroom',
      'Attic level',
      'Loft level',
      lock.name,
    ];
  });

  it('tells an admin everything (what the others read, filtered)', async () => {
    expect(leaks(JSON.stringify(await entriesOf(admin)))).toEqual(hidden);
  });

  it('never names the hidden room, its devices or its floor to a resident narrowed away from them, in the list or the export', async () => {
    const entries = await entriesOf(nres);
    expect(leaks(JSON.stringify(entries))).toEqual([]);
    expect(leaks(await exportOf(nres))).toEqual([]);
    // The attack's first step found nothing.
    expect(leaks(JSON.stringify(await entriesOf(nres, '&kind=room.create')))).toEqual([]);

    // What is visible stays, with the hidden part of each list left out and its count lowered.
    const kinds = (kind: string) => entries.filter((entry) => entry.kind === kind);
    expect(kinds('room.create').map((entry) => entry.room_id)).toEqual([hall.id]);
    expect(kinds('room.assign').map((entry) => entry.detail)).toEqual([
      { room_id: hall.id, device_ids: [plug.id], count: 1 },
      { room_id: null, device_ids: [plug.id], count: 1 },
      { room_id: hall.id, device_ids: [plug.id], count: 1 },
    ]);
    // Of the user's two changes, the one taking away the Vault alone is left out, as is the resident's own narrowing.
    expect(kinds('access.change').map((entry) => entry.detail)).toEqual([
      { user_id: usr.id, rooms: { [hall.id]: 'view' }, devices: {}, count: 1 },
    ]);
    expect(kinds('pass.create')[0]?.detail).toMatchObject({ rooms: [hall.id], devices: [plug.id] });
    expect(kinds('favourites.change')[0]?.detail).toEqual({ device_ids: [plug.id], count: 1 });
    expect(kinds('floor.create')).toEqual([]);
    expect(kinds('device.command')).toEqual([]);
  });

  it('shows a user their own refused command without the device they may not view', async () => {
    const own = await entriesOf(usr);
    const refused = own.find((entry) => entry.kind === 'device.command');
    expect(refused).toMatchObject({
      result: 'refused',
      actor: { id: usr.id },
      detail: { state: { state: 'UNLOCK' } },
    });
    expect(refused?.device_id).toBeUndefined();
    expect(leaks(JSON.stringify(own))).toEqual([]);
    expect(leaks(await exportOf(usr))).toEqual([]);
  });
});

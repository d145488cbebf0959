import type { Device, Room } from '@hearth/contracts';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../test/app.js';
import { testDatabases } from '../../test/databases.js';
import { commandFor } from '../../test/device-stream.js';
import { waitFor } from '../../test/wait.js';
import type { UserRecord } from '../users/index.js';
import { ACCESS_ERRORS as E } from './access.errors.js';

/** The simulator's first 20 devices reach the Front door lock. */
const SIMULATED_DEVICES = 20;
const UNLOCK = { state: { state: 'UNLOCK' } };
const IN_A_DAY = () => new Date(Date.now() + 86_400_000).toISOString();

/**
 * docs/access.md#granting (issue 32 item 2): nobody gives more than they have. A resident's rule
 * changes are capped at their own reach, a promotion by a narrowed resident carries its narrowing,
 * and a narrowed resident cannot reset anyone's rules.
 */
describe.each(testDatabases())('granting access on $name', ({ create }) => {
  const t = useTestApp({
    database: create,
    env: { SIMULATOR: 'on', SIMULATOR_DEVICES: String(SIMULATED_DEVICES) },
  });
  let admin: UserRecord;
  let devices: Device[];
  const named = (name: string) => devices.find((device) => device.name === name)!;
  let n = 0;

  beforeAll(async () => {
    admin = await t.user('admin');
    devices = await waitFor(async () => {
      const list: Device[] = (await t.call(admin, 'GET', '/api/devicehub/devices')).body;
      return list.length === SIMULATED_DEVICES && list;
    });
  });

  /** An Office holding the lock and the living room lamp, a Hall holding the plug. */
  const household = async () => {
    n++;
    const office: Room = (await t.call(admin, 'POST', '/api/rooms', { name: `Office ${n}` })).body;
    const hall: Room = (await t.call(admin, 'POST', '/api/rooms', { name: `Hall ${n}` })).body;
    const lock = named('Front door lock');
    const lamp = named('Living room lamp');
    const plug = named('Coffee machine plug');
    await t.call(admin, 'PUT', `/api/rooms/${office.id}/devices`, { device_ids: [lock.id, lamp.id] });
    await t.call(admin, 'PUT', `/api/rooms/${hall.id}/devices`, { device_ids: [plug.id] });
    return { office, hall, lock, lamp, plug };
  };
  /** A resident an admin narrowed with these rules. */
  const narrowed = async (rules: object) => {
    const resident = await t.user('resident');
    expect((await t.call(admin, 'PUT', `/api/access/${resident.id}`, rules)).status).toBe(200);
    return resident;
  };
  const rulesOf = async (user: UserRecord) => (await t.call(admin, 'GET', `/api/access/${user.id}`)).body;
  const unlock = async (user: UserRecord, lock: Device) =>
    (await t.call(user, 'POST', `/api/devicehub/devices/${lock.id}/commands`, UNLOCK)).status;

  it("the attack of issue 32 (a): a resident narrowed away from the Office cannot give a user the Office's lock", async () => {
    const { office, lock } = await household();
    const nres = await narrowed({ rooms: { [office.id]: 'none' } });
    const usr = await t.user('user');
    // A room or device hidden from the caller is as unknown: neither its name nor that it exists is theirs to learn.
    expect(await t.call(nres, 'PUT', `/api/access/${usr.id}`, { rooms: { [office.id]: 'control' } })).toEqual(
      { status: 400, body: { error: E.unknownRoom(office.id) } },
    );
    expect(await t.call(nres, 'PUT', `/api/access/${usr.id}`, { devices: { [lock.id]: 'view' } })).toEqual({
      status: 400,
      body: { error: E.unknownDevice(lock.id) },
    });
    expect((await rulesOf(usr)).rooms).toEqual({});
    expect(await unlock(usr, lock)).toBe(404);
    await t.hearth.activity.flush();
    const log = (await t.call(admin, 'GET', `/api/activity?kind=access.change&actor=${nres.id}`)).body;
    expect(log.entries.map((e: { result: string }) => e.result)).toEqual(['refused', 'refused']);
  });

  it('caps each change at what the resident has: a level above theirs is refused, naming the room or device', async () => {
    const { office, hall, lock, lamp } = await household();
    const usr = await t.user('user');
    const viewer = await narrowed({ rooms: { [office.id]: 'view' } });
    expect(
      await t.call(viewer, 'PUT', `/api/access/${usr.id}`, { rooms: { [office.id]: 'control' } }),
    ).toEqual({ status: 403, body: { error: E.beyondOwn(office.name) } });
    expect(
      await t.call(viewer, 'PUT', `/api/access/${usr.id}`, { devices: { [lamp.id]: 'control' } }),
    ).toEqual({ status: 403, body: { error: E.beyondOwn(lamp.name) } });
    expect(
      (await t.call(viewer, 'PUT', `/api/access/${usr.id}`, { rooms: { [office.id]: 'view' } })).status,
    ).toBe(200);
    expect(await unlock(usr, lock)).toBe(403);

    // Control of the Office but only a view of its lock: the room at control would hand the lock over.
    const partly = await narrowed({ rooms: { [office.id]: 'control' }, devices: { [lock.id]: 'view' } });
    const other = await t.user('user');
    expect(
      await t.call(partly, 'PUT', `/api/access/${other.id}`, { rooms: { [office.id]: 'control' } }),
    ).toEqual({ status: 403, body: { error: E.beyondOwn(office.name) } });
    const within = { rooms: { [office.id]: 'control' }, devices: { [lock.id]: 'view' } };
    expect((await t.call(partly, 'PUT', `/api/access/${other.id}`, within)).status).toBe(200);
    expect(await unlock(other, lock)).toBe(403);
    expect(
      (await t.call(other, 'POST', `/api/devicehub/devices/${lamp.id}/commands`, commandFor(lamp))).status,
    ).toBe(200);

    // What an admin gave stays when a narrowed resident changes something else, and may be taken away…
    const given = await t.user('user');
    await t.call(admin, 'PUT', `/api/access/${given.id}`, { rooms: { [office.id]: 'control' } });
    const limited = await narrowed({ devices: { [lock.id]: 'view' } });
    const more = { rooms: { [office.id]: 'control', [hall.id]: 'view' } };
    expect((await t.call(limited, 'PUT', `/api/access/${given.id}`, more)).status).toBe(200);
    expect(
      (await t.call(limited, 'PUT', `/api/access/${given.id}`, { rooms: { [hall.id]: 'view' } })).status,
    ).toBe(200);
    expect(await unlock(given, lock)).toBe(404);
    // …and, once taken, may not be given back by them.
    expect((await t.call(limited, 'PUT', `/api/access/${given.id}`, more)).status).toBe(403);
  });

  it('a narrowed resident neither learns nor changes the rules on what is hidden from them', async () => {
    const { office, hall, lock, lamp, plug } = await household();
    const nres = await narrowed({ rooms: { [office.id]: 'none' } });
    const usr = await t.user('user');
    const byAdmin = {
      rooms: { [office.id]: 'view', [hall.id]: 'view' },
      devices: { [lock.id]: 'control', [plug.id]: 'control' },
    };
    expect((await t.call(admin, 'PUT', `/api/access/${usr.id}`, byAdmin)).status).toBe(200);
    const hidden = [office.id, lock.id, lamp.id];
    const read = await t.call(nres, 'GET', `/api/access/${usr.id}`);
    expect(read).toEqual({
      status: 200,
      body: { user_id: usr.id, rooms: { [hall.id]: 'view' }, devices: { [plug.id]: 'control' } },
    });
    // Their own rules name the Office too: left out as well.
    const own = await t.call(nres, 'GET', `/api/access/${nres.id}`);
    expect(own.body).toEqual({ user_id: nres.id, rooms: {}, devices: {} });

    // A change replaces what they see; the rules on the Office and its lock stay as the admin set them.
    const changed = await t.call(nres, 'PUT', `/api/access/${usr.id}`, { rooms: { [hall.id]: 'none' } });
    expect(changed).toEqual({
      status: 200,
      body: { user_id: usr.id, rooms: { [hall.id]: 'none' }, devices: {} },
    });
    expect(await rulesOf(usr)).toEqual({
      user_id: usr.id,
      rooms: { [office.id]: 'view', [hall.id]: 'none' },
      devices: { [lock.id]: 'control' },
    });
    expect(await unlock(usr, lock)).toBe(200);
    // Naming a hidden room or device, to take it away or to give it, answers as for one that does not exist.
    for (const body of [
      { rooms: { [office.id]: 'none' } },
      { rooms: { [office.id]: 'control' } },
      { devices: { [lock.id]: 'none' } },
      { devices: { [lamp.id]: 'view' } },
    ]) {
      const [[id]] = Object.values(body).map(Object.keys) as [[string]];
      const error = 'rooms' in body ? E.unknownRoom(id) : E.unknownDevice(id);
      expect(await t.call(nres, 'PUT', `/api/access/${usr.id}`, body)).toEqual({
        status: 400,
        body: { error },
      });
    }
    expect((await rulesOf(usr)).devices).toEqual({ [lock.id]: 'control' });
    await t.hearth.activity.flush();
    // The change's entry names what changed as the caller sees it (the refusals, the ids they sent).
    const log = (await t.call(nres, 'GET', `/api/activity?kind=access.change&actor=${nres.id}`)).body;
    const ok = log.entries.filter((entry: { result: string }) => entry.result === 'ok');
    expect(ok.map((entry: { detail: unknown }) => entry.detail)).toEqual([
      { user_id: usr.id, rooms: { [hall.id]: 'none' }, devices: { [plug.id]: null }, count: 2 },
    ]);
    for (const id of hidden) expect(JSON.stringify([read, own, changed, ok])).not.toContain(id);
  });

  it("the attack of issue 32 (b): a narrowed resident's promotion carries their narrowing, and they cannot reset rules", async () => {
    const { office, hall, lock, plug } = await household();
    const nres = await narrowed({ rooms: { [office.id]: 'none' }, devices: { [plug.id]: 'view' } });
    const spare = await t.user('user');
    const promoted = await t.call(nres, 'PATCH', `/api/auth/users/${spare.id}`, { role: 'resident' });
    expect(promoted).toMatchObject({ status: 200, body: { role: 'resident' } });
    expect(await rulesOf(spare)).toEqual({
      user_id: spare.id,
      rooms: { [office.id]: 'none' },
      devices: { [plug.id]: 'view' },
    });
    expect(await unlock(spare, lock)).toBe(404);
    const pass = { label: 'Cleaner', level: 'control', rooms: [office.id], ends_at: IN_A_DAY() };
    expect((await t.call(spare, 'POST', '/api/passes', pass)).status).toBe(403);

    // Rules an admin gave are kept as far as the promoter has them.
    const given = await t.user('user');
    await t.call(admin, 'PUT', `/api/access/${given.id}`, {
      rooms: { [office.id]: 'control', [hall.id]: 'view' },
    });
    await t.call(nres, 'PATCH', `/api/auth/users/${given.id}`, { role: 'resident' });
    expect(await rulesOf(given)).toEqual({
      user_id: given.id,
      rooms: { [office.id]: 'none', [hall.id]: 'view' },
      devices: {},
    });

    const third = await t.user('user');
    expect(
      await t.call(nres, 'PATCH', `/api/auth/users/${third.id}`, { role: 'resident', reset_access: true }),
    ).toEqual({ status: 403, body: { error: E.narrowedReset } });
    expect((await t.call(admin, 'GET', `/api/auth/users?q=${third.userName}`)).body.users[0].role).toBe(
      'user',
    );

    // A resident nobody narrowed promotes as before: the rules are kept as they are.
    const free = await t.user('resident');
    const kept = await t.user('user');
    await t.call(admin, 'PUT', `/api/access/${kept.id}`, { rooms: { [hall.id]: 'view' } });
    await t.call(free, 'PATCH', `/api/auth/users/${kept.id}`, { role: 'resident' });
    expect(await rulesOf(kept)).toEqual({ user_id: kept.id, rooms: { [hall.id]: 'view' }, devices: {} });
  });
});

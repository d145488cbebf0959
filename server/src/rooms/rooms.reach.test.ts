import { ACCESS_MESSAGES, type Device, type Floor, type Room } from '@hearth/contracts';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../test/app.js';
import { testDatabases } from '../../test/databases.js';
import { waitFor } from '../../test/wait.js';
import type { UserRecord } from '../users/index.js';
import { ROOMS_ERRORS as E } from './rooms.errors.js';

/** The simulator's first 20 devices reach the Front door lock. */
const SIMULATED_DEVICES = 20;
const UNLOCK = { state: { state: 'UNLOCK' } };

/**
 * docs/rooms.md#access and docs/access.md#deleting-a-room (issue 32 item 1): changing a room needs
 * `control` of it, a room the caller cannot see answers 404, and deleting a room widens nobody.
 */
describe.each(testDatabases())('rooms under access rules on $name', ({ create }) => {
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

  /** An Office holding the lock and the living room lamp, a Hall holding the plug, and a narrowed resident. */
  const household = async (rules: { rooms?: (office: Room) => object; devices?: object } = {}) => {
    n++;
    const office: Room = (await t.call(admin, 'POST', '/api/rooms', { name: `Office ${n}` })).body;
    const hall: Room = (await t.call(admin, 'POST', '/api/rooms', { name: `Hall ${n}` })).body;
    const lock = named('Front door lock');
    const lamp = named('Living room lamp');
    const plug = named('Coffee machine plug');
    for (const [room, ids] of [
      [office, [lock.id, lamp.id]],
      [hall, [plug.id]],
    ] as const) {
      expect((await t.call(admin, 'PUT', `/api/rooms/${room.id}/devices`, { device_ids: ids })).status).toBe(
        200,
      );
    }
    const nres = await t.user('resident');
    const body = { rooms: rules.rooms?.(office) ?? { [office.id]: 'none' }, devices: rules.devices ?? {} };
    expect((await t.call(admin, 'PUT', `/api/access/${nres.id}`, body)).status).toBe(200);
    return { office, hall, lock, lamp, plug, nres };
  };
  const roomsOf = async (user: UserRecord): Promise<{ rooms: Room[]; floors: Floor[] }> =>
    (await t.call(user, 'GET', '/api/rooms')).body;
  const accessOf = async (user: UserRecord) =>
    Object.fromEntries(
      ((await t.call(user, 'GET', '/api/devicehub/devices')).body as Device[]).map((d) => [d.id, d.access]),
    );

  it('the attack of issue 32: a resident narrowed away from the Office can neither delete nor change it, and the lock stays out of reach', async () => {
    const { office, lock, nres } = await household();
    const notFound = { status: 404, body: { error: E.roomNotFound } };
    expect(await t.call(nres, 'DELETE', `/api/rooms/${office.id}`)).toEqual(notFound);
    expect(await t.call(nres, 'PATCH', `/api/rooms/${office.id}`, { name: 'Mine now' })).toEqual(notFound);
    expect(await t.call(nres, 'PATCH', `/api/rooms/${office.id}`, { floor_id: null })).toEqual(notFound);
    expect(
      await t.call(nres, 'PUT', `/api/rooms/${office.id}/devices`, {
        device_ids: [named('Hallway lamp').id],
      }),
    ).toEqual(notFound);
    expect(await t.call(nres, 'POST', `/api/devicehub/devices/${lock.id}/commands`, UNLOCK)).toMatchObject({
      status: 404,
      body: { error: ACCESS_MESSAGES.deviceNotFound },
    });
    const stored = (await roomsOf(admin)).rooms.find((room) => room.id === office.id);
    expect(stored).toEqual(office);
    expect((await roomsOf(nres)).rooms.map((room) => room.id)).not.toContain(office.id);
  });

  it('answers 403 to a resident who may only view the room, or who does not control every device of a room to delete', async () => {
    const viewer = await household({ rooms: (office) => ({ [office.id]: 'view' }) });
    const viewOnly = { status: 403, body: { error: ACCESS_MESSAGES.roomControl } };
    expect(await t.call(viewer.nres, 'PATCH', `/api/rooms/${viewer.office.id}`, { icon: 'sofa' })).toEqual(
      viewOnly,
    );
    expect(await t.call(viewer.nres, 'DELETE', `/api/rooms/${viewer.office.id}`)).toEqual(viewOnly);

    // Control of the room, but the lock is only theirs to watch: they may rename it, not delete it.
    const partly = await household({
      rooms: (office) => ({ [office.id]: 'control' }),
      devices: { [named('Front door lock').id]: 'view' },
    });
    expect(await t.call(partly.nres, 'DELETE', `/api/rooms/${partly.office.id}`)).toEqual({
      status: 403,
      body: { error: E.deleteNeedsControl },
    });
    const renamed = await t.call(partly.nres, 'PATCH', `/api/rooms/${partly.office.id}`, {
      name: `Study ${n}`,
    });
    expect(renamed).toMatchObject({ status: 200, body: { id: partly.office.id, name: `Study ${n}` } });
    expect((await roomsOf(admin)).rooms.some((room) => room.id === partly.office.id)).toBe(true);
  });

  it('turns the rules naming a deleted room into rules on its devices: nobody reaches more than before', async () => {
    const { office, lock, lamp, plug, nres } = await household({
      rooms: (office) => ({ [office.id]: 'none' }),
      devices: { [named('Living room lamp').id]: 'control' },
    });
    const usr = await t.user('user');
    await t.call(admin, 'PUT', `/api/access/${usr.id}`, { rooms: { [office.id]: 'view' } });
    const before = { nres: await accessOf(nres), usr: await accessOf(usr) };
    expect(before.usr).toEqual({ [lock.id]: 'view', [lamp.id]: 'view' });

    expect((await t.call(admin, 'DELETE', `/api/rooms/${office.id}`)).status).toBe(204);
    expect((await t.call(admin, 'GET', `/api/access/${nres.id}`)).body).toEqual({
      user_id: nres.id,
      rooms: {},
      // The lamp's own rule stays as it was; the lock takes the room's.
      devices: { [lock.id]: 'none', [lamp.id]: 'control' },
    });
    expect((await t.call(admin, 'GET', `/api/access/${usr.id}`)).body).toEqual({
      user_id: usr.id,
      rooms: {},
      devices: { [lock.id]: 'view', [lamp.id]: 'view' },
    });
    expect(await accessOf(nres)).toEqual(before.nres);
    expect(await accessOf(usr)).toEqual(before.usr);
    expect(await t.call(nres, 'POST', `/api/devicehub/devices/${lock.id}/commands`, UNLOCK)).toMatchObject({
      status: 404,
    });
    expect(await t.call(usr, 'POST', `/api/devicehub/devices/${lock.id}/commands`, UNLOCK)).toMatchObject({
      status: 403,
    });
    // The devices are unassigned; the plug's room is untouched.
    const rooms = Object.fromEntries(
      ((await t.call(admin, 'GET', '/api/devicehub/devices')).body as Device[]).map((d) => [d.id, d.room_id]),
    );
    expect([rooms[lock.id], rooms[lamp.id], typeof rooms[plug.id]]).toEqual([null, null, 'string']);
  });

  it('shows a narrowed resident every room but those hidden from them, including the empty ones it creates, and lets it change those', async () => {
    const { office, hall, nres } = await household();
    const mine = await t.call(nres, 'POST', '/api/rooms', { name: `Garage ${n}` });
    expect(mine.status).toBe(201);
    const seen = (await roomsOf(nres)).rooms.map((room) => room.id);
    expect(seen).toContain(hall.id);
    expect(seen).toContain(mine.body.id);
    expect(seen).not.toContain(office.id);
    expect(
      (await t.call(nres, 'PATCH', `/api/rooms/${mine.body.id}`, { name: `Workshop ${n}` })).status,
    ).toBe(200);
    expect((await t.call(nres, 'DELETE', `/api/rooms/${mine.body.id}`)).status).toBe(204);
  });

  it('hides a floor holding only hidden rooms (404, an unknown floor in a body); deleting a floor needs control of every room on it', async () => {
    const { office, hall, nres } = await household();
    const upstairs: Floor = (await t.call(admin, 'POST', '/api/floors', { name: `Upstairs ${n}` })).body;
    const downstairs: Floor = (await t.call(admin, 'POST', '/api/floors', { name: `Downstairs ${n}` })).body;
    await t.call(admin, 'PATCH', `/api/rooms/${office.id}`, { floor_id: upstairs.id });
    await t.call(admin, 'PATCH', `/api/rooms/${hall.id}`, { floor_id: downstairs.id });

    const floors = (await roomsOf(nres)).floors.map((floor) => floor.id);
    expect(floors).toContain(downstairs.id);
    expect(floors).not.toContain(upstairs.id);
    const floorNotFound = { status: 404, body: { error: E.floorNotFound } };
    expect(await t.call(nres, 'PATCH', `/api/floors/${upstairs.id}`, { name: 'Attic' })).toEqual(
      floorNotFound,
    );
    expect(await t.call(nres, 'DELETE', `/api/floors/${upstairs.id}`)).toEqual(floorNotFound);
    const unknownFloor = { status: 400, body: { error: E.unknownFloor } };
    expect(await t.call(nres, 'POST', '/api/rooms', { name: `Den ${n}`, floor_id: upstairs.id })).toEqual(
      unknownFloor,
    );
    expect(await t.call(nres, 'PATCH', `/api/rooms/${hall.id}`, { floor_id: upstairs.id })).toEqual(
      unknownFloor,
    );

    // The Office joins the Hall downstairs: that floor now holds a room the resident may not change.
    await t.call(admin, 'PATCH', `/api/rooms/${office.id}`, { floor_id: downstairs.id });
    expect(await t.call(nres, 'DELETE', `/api/floors/${downstairs.id}`)).toEqual({
      status: 403,
      body: { error: E.floorNeedsControl },
    });
    expect((await roomsOf(admin)).rooms.find((room) => room.id === office.id)?.floor_id).toBe(downstairs.id);
    // A floor of rooms they control is theirs to rename and delete.
    expect(
      (await t.call(nres, 'PATCH', `/api/floors/${downstairs.id}`, { name: `Ground ${n}` })).status,
    ).toBe(200);
    await t.call(admin, 'PATCH', `/api/rooms/${office.id}`, { floor_id: null });
    expect((await t.call(nres, 'DELETE', `/api/floors/${downstairs.id}`)).status).toBe(204);
  });
});

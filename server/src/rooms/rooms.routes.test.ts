import type { Device, Room } from '@hearth/contracts';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../test/app.js';
import { testDatabases } from '../../test/databases.js';
import { waitFor } from '../../test/wait.js';
import type { UserRecord } from '../users/index.js';

const SIMULATED_DEVICES = 6;

/** docs/rooms.md#api on both databases, with the simulator's first six devices in the hub. */
describe.each(testDatabases())('rooms, floors and favourites on $name', ({ create }) => {
  const t = useTestApp({
    database: create,
    env: { SIMULATOR: 'on', SIMULATOR_DEVICES: String(SIMULATED_DEVICES) },
  });
  let resident: UserRecord;
  let admin: UserRecord;
  let user: UserRecord;
  const call = t.call;
  const list = async (): Promise<Device[]> => (await call(resident, 'GET', '/api/devicehub/devices')).body;

  beforeAll(async () => {
    resident = await t.user('resident');
    admin = await t.user('admin');
    user = await t.user('user');
    await waitFor(async () => (await list()).length === SIMULATED_DEVICES);
  });

  const rooms = async () => (await call(resident, 'GET', '/api/rooms')).body;
  const names = async () => (await rooms()).rooms.map((room: Room) => room.name);
  const device = async (name: string) => (await list()).find((d) => d.name === name)!;
  const newRoom = async (name: string, extra: Record<string, unknown> = {}) => {
    const created = await call(resident, 'POST', '/api/rooms', { name, ...extra });
    expect(created.status).toBe(201);
    return created.body as Room;
  };
  const removeAll = async () => {
    for (const room of (await rooms()).rooms) await call(admin, 'DELETE', `/api/rooms/${room.id}`);
    for (const floor of (await rooms()).floors) await call(admin, 'DELETE', `/api/floors/${floor.id}`);
  };

  describe('access', () => {
    it('lets residents and admins in, and refuses the user role and strangers', async () => {
      const calls: [string, string, unknown?][] = [
        ['POST', '/api/rooms', { name: 'Attic' }],
        ['POST', '/api/floors', { name: 'Attic floor' }],
        ['PUT', '/api/rooms/unassigned/devices', { device_ids: [] }],
      ];
      // docs/access.md: every account sees the rooms holding a device it may view, and keeps favourites among those.
      for (const [method, url, body] of [
        ['GET', '/api/rooms', { rooms: [], floors: [] }],
        ['GET', '/api/favourites', { device_ids: [] }],
        ['PUT', '/api/favourites', { device_ids: [] }],
      ] as const) {
        expect((await call(undefined, method, url, method === 'PUT' ? body : undefined)).status).toBe(401);
        expect(await call(user, method, url, method === 'PUT' ? body : undefined)).toEqual({
          status: 200,
          body,
        });
      }
      for (const [method, url, body] of calls) {
        const m = method as 'GET';
        expect((await call(undefined, m, url, body)).status, `${method} ${url} signed out`).toBe(401);
        expect(await call(user, m, url, body), `${method} ${url} as user`).toEqual({
          status: 403,
          body: { error: 'Forbidden' },
        });
      }
      expect(await names()).toEqual([]);
      const attic = (await call(admin, 'POST', '/api/rooms', { name: 'Attic' })).body;
      const floor = (await call(admin, 'POST', '/api/floors', { name: 'Top' })).body;
      const lamp = await device('Living room lamp');
      const onExisting: [string, string, unknown?][] = [
        ['PATCH', `/api/rooms/${attic.id}`, { name: 'Loft' }],
        ['DELETE', `/api/rooms/${attic.id}`],
        ['PUT', `/api/rooms/${attic.id}/devices`, { device_ids: [lamp.id] }],
        ['PATCH', `/api/floors/${floor.id}`, { name: 'Roof' }],
        ['DELETE', `/api/floors/${floor.id}`],
      ];
      for (const [method, url, body] of onExisting) {
        expect(await call(user, method as 'PATCH', url, body), `${method} ${url} as user`).toEqual({
          status: 403,
          body: { error: 'Forbidden' },
        });
      }
      expect(await rooms()).toEqual({ rooms: [attic], floors: [floor] });
      expect((await device('Living room lamp')).room_id).toBeNull();
      expect((await call(resident, 'GET', '/api/rooms')).status).toBe(200);
      await removeAll();
    });
  });

  describe('rooms', () => {
    it('creates rooms in order with the default icon, trims names and lists them with floors', async () => {
      const kitchen = await newRoom('  Kitchen ');
      expect(kitchen).toEqual({
        id: expect.any(String),
        name: 'Kitchen',
        icon: 'house',
        order: 0,
        floor_id: null,
      });
      const bedroom = await newRoom('Bedroom', { icon: 'bed-double' });
      expect(bedroom).toMatchObject({ name: 'Bedroom', icon: 'bed-double', order: 1 });
      expect(await rooms()).toEqual({ rooms: [kitchen, bedroom], floors: [] });
      await removeAll();
    });

    it('renames, changes the icon and moves a room, re-numbering the others', async () => {
      const a = await newRoom('A');
      const b = await newRoom('B');
      const c = await newRoom('C');
      const moved = await call(resident, 'PATCH', `/api/rooms/${c.id}`, {
        order: 0,
        name: 'Cellar',
        icon: 'archive',
      });
      expect(moved).toEqual({ status: 200, body: { ...c, name: 'Cellar', icon: 'archive', order: 0 } });
      expect((await rooms()).rooms.map((r: Room) => [r.name, r.order])).toEqual([
        ['Cellar', 0],
        ['A', 1],
        ['B', 2],
      ]);
      // Beyond the end: the last place.
      await call(resident, 'PATCH', `/api/rooms/${a.id}`, { order: 99 });
      expect(await names()).toEqual(['Cellar', 'B', 'A']);
      // Same name in another case is the room's own: allowed.
      expect((await call(resident, 'PATCH', `/api/rooms/${b.id}`, { name: 'b' })).body.name).toBe('b');
      await removeAll();
    });

    it('refuses bad input with 400 and a clear message, changing nothing', async () => {
      const kitchen = await newRoom('Kitchen');
      const before = await rooms();
      const refusals: [string, string, unknown, string][] = [
        ['POST', '/api/rooms', { name: '' }, 'Name is required'],
        ['POST', '/api/rooms', { name: '    ' }, 'Name is required'],
        ['POST', '/api/rooms', {}, 'Name is required'],
        ['POST', '/api/rooms', { name: 42 }, 'Name is required'],
        ['POST', '/api/rooms', { name: 'x'.repeat(65) }, 'Name must be at most 64 characters'],
        ['POST', '/api/rooms', { name: 'kITCHEN' }, 'A room named "kITCHEN" already exists without a floor'],
        ['POST', '/api/rooms', { name: 'Hall', icon: 'rocket' }, 'Unknown icon'],
        ['POST', '/api/rooms', { name: 'Hall', floor_id: 'no-such-floor' }, 'Unknown floor'],
        ['PATCH', `/api/rooms/${kitchen.id}`, { name: '' }, 'Name is required'],
        ['PATCH', `/api/rooms/${kitchen.id}`, { order: -1 }, 'order must be a whole number, 0 or more'],
        ['PATCH', `/api/rooms/${kitchen.id}`, { order: 1.5 }, 'order must be a whole number, 0 or more'],
        ['PATCH', `/api/rooms/${kitchen.id}`, { floor_id: 'nope' }, 'Unknown floor'],
        ['POST', '/api/floors', { name: 'y'.repeat(65) }, 'Name must be at most 64 characters'],
      ];
      for (const [method, url, body, error] of refusals) {
        expect(
          await call(resident, method as 'POST', url, body),
          `${method} ${JSON.stringify(body)}`,
        ).toEqual({
          status: 400,
          body: { error },
        });
      }
      expect((await newRoom('x'.repeat(64))).name).toHaveLength(64);
      const after = await rooms();
      expect(after.rooms.slice(0, 1)).toEqual(before.rooms);
      expect(after.floors).toEqual([]);
      await removeAll();
    });

    it('deletes a room, its devices becoming unassigned, and closes the gap in the order', async () => {
      const first = await newRoom('First');
      const kitchen = await newRoom('Kitchen');
      const last = await newRoom('Last');
      const lamp = await device('Living room lamp');
      expect(
        (await call(resident, 'PUT', `/api/rooms/${kitchen.id}/devices`, { device_ids: [lamp.id] })).status,
      ).toBe(200);
      expect((await device('Living room lamp')).room_id).toBe(kitchen.id);
      expect(await call(admin, 'DELETE', `/api/rooms/${kitchen.id}`)).toEqual({
        status: 204,
        body: undefined,
      });
      expect((await rooms()).rooms).toEqual([first, { ...last, order: 1 }]);
      const after = await device('Living room lamp');
      expect(after.room_id).toBeNull();
      expect(after.id).toBe(lamp.id);
      expect((await list()).length).toBe(SIMULATED_DEVICES);
      await removeAll();
    });
  });

  describe('assignment', () => {
    it('puts devices in a room, moves them from another, and takes them out of every room', async () => {
      const kitchen = await newRoom('Kitchen');
      const hall = await newRoom('Hall');
      const lamp = await device('Living room lamp');
      const door = await device('Front door');
      const stairs = await device('Hallway lamp');

      const put = await call(resident, 'PUT', `/api/rooms/${kitchen.id}/devices`, {
        device_ids: [door.id, lamp.id],
      });
      expect(put).toEqual({ status: 200, body: { room_id: kitchen.id, changed: [door.id, lamp.id] } });
      const roomOf = async () => Object.fromEntries((await list()).map((d: Device) => [d.name, d.room_id]));
      expect(await roomOf()).toMatchObject({
        'Living room lamp': kitchen.id,
        'Front door': kitchen.id,
        'Hallway lamp': null,
      });

      // Bulk: one already there (left out of `changed`), one moved from the kitchen, one new.
      const bulk = await call(admin, 'PUT', `/api/rooms/${hall.id}/devices`, {
        device_ids: [stairs.id, lamp.id],
      });
      expect(bulk.body).toEqual({ room_id: hall.id, changed: [stairs.id, lamp.id] });
      expect(
        (await call(admin, 'PUT', `/api/rooms/${hall.id}/devices`, { device_ids: [lamp.id] })).body,
      ).toEqual({
        room_id: hall.id,
        changed: [],
      });
      expect(await roomOf()).toMatchObject({
        'Living room lamp': hall.id,
        'Front door': kitchen.id,
        'Hallway lamp': hall.id,
      });

      const out = await call(resident, 'PUT', '/api/rooms/unassigned/devices', {
        device_ids: [lamp.id, door.id],
      });
      expect(out.body).toEqual({ room_id: null, changed: [lamp.id, door.id] });
      expect(await roomOf()).toMatchObject({
        'Living room lamp': null,
        'Front door': null,
        'Hallway lamp': hall.id,
      });
      await removeAll();
    });

    it('refuses a call with any unknown, repeated or malformed id as a whole: nothing moves', async () => {
      const kitchen = await newRoom('Kitchen');
      const lamp = await device('Living room lamp');
      const door = await device('Front door');
      const url = `/api/rooms/${kitchen.id}/devices`;
      const refusals: [unknown, string][] = [
        [{ device_ids: [lamp.id, 'no-such-device'] }, 'Unknown device: no-such-device'],
        [{ device_ids: [lamp.id, door.id, lamp.id] }, 'device_ids lists a device twice'],
        [{ device_ids: [lamp.id, 7] }, 'device_ids must be a list of device ids'],
        [{ device_ids: [lamp.id, ''] }, 'device_ids must be a list of device ids'],
        [{ device_ids: lamp.id }, 'device_ids must be a list of device ids'],
        [{}, 'device_ids must be a list of device ids'],
        [
          { device_ids: Array.from({ length: 5001 }, (_, i) => `id-${i}`) },
          'device_ids lists too many devices',
        ],
      ];
      for (const [body, error] of refusals) {
        expect(await call(resident, 'PUT', url, body)).toEqual({ status: 400, body: { error } });
        expect(await call(resident, 'PUT', '/api/rooms/unassigned/devices', body)).toEqual({
          status: 400,
          body: { error },
        });
      }
      expect((await list()).every((d: Device) => d.room_id === null)).toBe(true);
      await removeAll();
    });
  });

  describe('suggestions', () => {
    it('suggests the room of a `room/device` name until someone assigns the device', async () => {
      const light = await device('Bedroom ceiling light');
      expect(light).toMatchObject({ room_id: null, suggested_room: null });
      const rename = (name: string) =>
        call(resident, 'PATCH', `/api/devicehub/devices/${light.id}`, { name });
      expect((await rename('Bedroom/Ceiling')).body.data).toMatchObject({
        name: 'Bedroom/Ceiling',
        suggested_room: 'Bedroom',
      });
      expect((await device('Bedroom/Ceiling')).suggested_room).toBe('Bedroom');

      // Accepting: the room is created and the device put in it; the suggestion is gone for good.
      const bedroom = await newRoom('Bedroom');
      await call(resident, 'PUT', `/api/rooms/${bedroom.id}/devices`, { device_ids: [light.id] });
      expect(await device('Bedroom/Ceiling')).toMatchObject({ room_id: bedroom.id, suggested_room: null });
      await call(resident, 'PUT', '/api/rooms/unassigned/devices', { device_ids: [light.id] });
      expect(await device('Bedroom/Ceiling')).toMatchObject({ room_id: null, suggested_room: null });
      await rename('Sleeping/Ceiling');
      expect(await device('Sleeping/Ceiling')).toMatchObject({ room_id: null, suggested_room: null });
      await rename('Bedroom ceiling light');
      await removeAll();
    });

    it('is dismissed by putting the device in unassigned', async () => {
      const strip = await device('Kitchen LED strip');
      await call(resident, 'PATCH', `/api/devicehub/devices/${strip.id}`, { name: 'Kitchen/LED strip' });
      expect((await device('Kitchen/LED strip')).suggested_room).toBe('Kitchen');
      const dismissed = await call(resident, 'PUT', '/api/rooms/unassigned/devices', {
        device_ids: [strip.id],
      });
      expect(dismissed.body).toEqual({ room_id: null, changed: [strip.id] });
      expect(await device('Kitchen/LED strip')).toMatchObject({ room_id: null, suggested_room: null });
      await call(resident, 'PATCH', `/api/devicehub/devices/${strip.id}`, { name: 'Kitchen LED strip' });
    });
  });

  describe('floors', () => {
    it('creates, renames and reorders floors; rooms of a deleted floor stay without one', async () => {
      const ground = (await call(resident, 'POST', '/api/floors', { name: 'Ground floor' })).body;
      const upstairs = (await call(resident, 'POST', '/api/floors', { name: 'Upstairs' })).body;
      expect([ground.order, upstairs.order]).toEqual([0, 1]);
      expect((await call(resident, 'POST', '/api/floors', { name: 'upstairs' })).body).toEqual({
        error: 'A floor named "upstairs" already exists',
      });
      const moved = await call(resident, 'PATCH', `/api/floors/${upstairs.id}`, {
        order: 0,
        name: 'First floor',
      });
      expect(moved).toEqual({ status: 200, body: { id: upstairs.id, name: 'First floor', order: 0 } });

      // Room names are unique per floor: the same name on two floors is fine, not twice on one.
      const groundBath = await newRoom('Bathroom', { floor_id: ground.id });
      const upBath = await newRoom('Bathroom', { floor_id: upstairs.id });
      expect(await call(resident, 'POST', '/api/rooms', { name: 'BATHROOM', floor_id: ground.id })).toEqual({
        status: 400,
        body: { error: 'A room named "BATHROOM" already exists on this floor' },
      });
      const hall = await newRoom('Hall', { floor_id: upstairs.id });
      // Moving a room onto a floor that has its name is refused too.
      expect(await call(resident, 'PATCH', `/api/rooms/${upBath.id}`, { floor_id: ground.id })).toEqual({
        status: 400,
        body: { error: 'A room named "Bathroom" already exists on this floor' },
      });
      expect(
        (await call(resident, 'PATCH', `/api/rooms/${hall.id}`, { floor_id: null })).body.floor_id,
      ).toBeNull();
      expect(
        (await call(resident, 'PATCH', `/api/rooms/${hall.id}`, { floor_id: ground.id })).body.floor_id,
      ).toBe(ground.id);

      expect((await call(resident, 'DELETE', `/api/floors/${upstairs.id}`)).status).toBe(204);
      const listed = await rooms();
      expect(listed.floors).toEqual([{ ...ground, order: 0 }]);
      expect(listed.rooms.find((r: Room) => r.id === upBath.id)).toEqual({ ...upBath, floor_id: null });

      // Deleting the ground floor would leave two "Bathroom"s without a floor: refused, nothing changed.
      expect(await call(resident, 'DELETE', `/api/floors/${ground.id}`)).toEqual({
        status: 400,
        body: {
          error: 'The floor cannot be deleted: its room "Bathroom" has the name of a room without a floor',
        },
      });
      expect(await rooms()).toEqual(listed);
      expect(listed.rooms.find((r: Room) => r.id === groundBath.id).floor_id).toBe(ground.id);
      await removeAll();
    });
  });

  describe('favourites', () => {
    it('keeps each user their own list in their order, and refuses unknown ids', async () => {
      const other = await t.user('resident');
      const lamp = await device('Living room lamp');
      const door = await device('Front door');
      expect(await call(resident, 'GET', '/api/favourites')).toEqual({
        status: 200,
        body: { device_ids: [] },
      });
      expect(await call(resident, 'PUT', '/api/favourites', { device_ids: [door.id, lamp.id] })).toEqual({
        status: 200,
        body: { device_ids: [door.id, lamp.id] },
      });
      expect((await call(resident, 'GET', '/api/favourites')).body).toEqual({
        device_ids: [door.id, lamp.id],
      });
      expect((await call(other, 'GET', '/api/favourites')).body).toEqual({ device_ids: [] });
      await call(other, 'PUT', '/api/favourites', { device_ids: [lamp.id] });
      expect(await call(resident, 'PUT', '/api/favourites', { device_ids: [lamp.id, 'ghost'] })).toEqual({
        status: 400,
        body: { error: 'Unknown device: ghost' },
      });
      expect((await call(resident, 'GET', '/api/favourites')).body).toEqual({
        device_ids: [door.id, lamp.id],
      });
      expect((await call(other, 'GET', '/api/favourites')).body).toEqual({ device_ids: [lamp.id] });
      await call(resident, 'PUT', '/api/favourites', { device_ids: [lamp.id, door.id] });
      expect((await call(resident, 'GET', '/api/favourites')).body).toEqual({
        device_ids: [lamp.id, door.id],
      });
      await call(resident, 'PUT', '/api/favourites', { device_ids: [] });
      expect((await call(resident, 'GET', '/api/favourites')).body).toEqual({ device_ids: [] });
    });

    it('leaves one favourites.change entry per change, refusals too (docs/activity.md#kinds)', async () => {
      const person = await t.user('resident');
      const lamp = await device('Living room lamp');
      const door = await device('Front door');
      await call(person, 'PUT', '/api/favourites', { device_ids: [door.id, lamp.id] });
      await call(person, 'PUT', '/api/favourites', { device_ids: [lamp.id, 'ghost'] });
      await call(person, 'PUT', '/api/favourites', { device_ids: [] });
      await t.hearth.activity.flush();
      const log = (await call(admin, 'GET', `/api/activity?actor=${person.id}`)).body.entries;
      expect(log).toMatchObject([
        { kind: 'favourites.change', result: 'ok', detail: { device_ids: [], count: 0 } },
        {
          kind: 'favourites.change',
          result: 'refused',
          detail: { device_ids: [lamp.id, 'ghost'], count: 2, reason: 'Unknown device: ghost' },
        },
        { kind: 'favourites.change', result: 'ok', detail: { device_ids: [door.id, lamp.id], count: 2 } },
      ]);
      expect(log).toHaveLength(3);
    });
  });

  describe('missing things', () => {
    it('answers 404 for a room or floor that does not exist', async () => {
      expect(await call(resident, 'PATCH', '/api/rooms/nope', { name: 'X' })).toEqual({
        status: 404,
        body: { error: 'Room not found' },
      });
      expect((await call(resident, 'DELETE', '/api/rooms/nope')).status).toBe(404);
      expect((await call(resident, 'PUT', '/api/rooms/nope/devices', { device_ids: [] })).status).toBe(404);
      expect(await call(resident, 'PATCH', '/api/floors/nope', { name: 'X' })).toEqual({
        status: 404,
        body: { error: 'Floor not found' },
      });
      expect((await call(resident, 'DELETE', '/api/floors/nope')).status).toBe(404);
    });
  });
});

import type { Device, Room } from '@hearth/contracts';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../test/app.js';
import { testDatabases } from '../../test/databases.js';
import { ACCESS_ERRORS as E } from './access.errors.js';

async function waitFor<T>(probe: () => Promise<T | undefined | false>): Promise<T> {
  const end = Date.now() + 5000;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** docs/access.md#api: GET and PUT /api/access/{user_id}, who may read and change whose rules. */
describe.each(testDatabases())('access rules API on $name', ({ create }) => {
  const t = useTestApp({ database: create, env: { SIMULATOR: 'on', SIMULATOR_DEVICES: '4' } });

  const setup = async () => {
    const admin = await t.user('admin');
    const devices: Device[] = await waitFor(async () => {
      const list = (await t.call(admin, 'GET', '/api/devicehub/devices')).body as Device[];
      return list.length === 4 && list;
    });
    const room: Room = (await t.call(admin, 'POST', '/api/rooms', { name: `Room ${crypto.randomUUID()}` }))
      .body;
    return { admin, devices, room };
  };

  it('answers the defaults, replaces rules whole, and records the change', async () => {
    const { admin, devices, room } = await setup();
    const user = await t.user('user');
    expect(await t.call(admin, 'GET', `/api/access/${user.id}`)).toEqual({
      status: 200,
      body: { user_id: user.id, rooms: {}, devices: {} },
    });
    const body = { user_id: user.id, rooms: { [room.id]: 'view' }, devices: { [devices[0]!.id]: 'control' } };
    expect(await t.call(admin, 'PUT', `/api/access/${user.id}`, body)).toEqual({ status: 200, body });
    expect((await t.call(user, 'GET', `/api/access/${user.id}`)).body).toEqual(body);
    // Left out: back to the role's default.
    const fewer = { rooms: { [room.id]: 'control' } };
    expect((await t.call(admin, 'PUT', `/api/access/${user.id}`, fewer)).body).toEqual({
      user_id: user.id,
      rooms: { [room.id]: 'control' },
      devices: {},
    });
    await t.hearth.activity.flush();
    const log = (await t.call(admin, 'GET', `/api/activity?kind=access.change&actor=${admin.id}`)).body;
    expect(log.entries).toHaveLength(2);
    expect(log.entries[0]).toMatchObject({
      actor: { type: 'user', id: admin.id },
      result: 'ok',
      detail: { user_id: user.id, rooms: { [room.id]: 'control' }, devices: { [devices[0]!.id]: null } },
    });
  });

  it('refuses bad levels, unknown rooms and devices with 400, changing nothing; unknown users with 404', async () => {
    const { admin, room } = await setup();
    const user = await t.user('user');
    const before = { rooms: { [room.id]: 'view' }, devices: {} };
    await t.call(admin, 'PUT', `/api/access/${user.id}`, before);
    const refused = async (body: unknown, error: string) => {
      expect(await t.call(admin, 'PUT', `/api/access/${user.id}`, body)).toEqual({
        status: 400,
        body: { error },
      });
    };
    await refused({ rooms: { [room.id]: 'own' } }, E.level);
    await refused({ rooms: { [room.id]: 'control', nowhere: 'view' } }, E.unknownRoom('nowhere'));
    await refused({ devices: { ghost: 'view' } }, E.unknownDevice('ghost'));
    await refused({ rooms: [] }, E.rules);
    await refused({ user_id: admin.id, rooms: {} }, E.userIdMismatch);
    expect((await t.call(admin, 'GET', `/api/access/${user.id}`)).body).toEqual({
      user_id: user.id,
      ...before,
    });
    expect(await t.call(admin, 'PUT', '/api/access/nobody', { rooms: {} })).toEqual({
      status: 404,
      body: { error: E.userNotFound },
    });
    expect((await t.call(admin, 'GET', '/api/access/nobody')).status).toBe(404);
  });

  it("lets residents change users' rules only: never their own, a resident's or an admin's", async () => {
    const { room } = await setup();
    const resident = await t.user('resident');
    const other = await t.user('resident');
    const admin = await t.user('admin');
    const user = await t.user('user');
    const body = { rooms: { [room.id]: 'control' } };
    expect((await t.call(resident, 'PUT', `/api/access/${user.id}`, body)).status).toBe(200);
    expect(await t.call(resident, 'PUT', `/api/access/${resident.id}`, body)).toEqual({
      status: 403,
      body: { error: E.ownRules },
    });
    expect(await t.call(resident, 'PUT', `/api/access/${other.id}`, body)).toEqual({
      status: 403,
      body: { error: E.residentEdits },
    });
    expect(await t.call(resident, 'PUT', `/api/access/${admin.id}`, body)).toEqual({
      status: 403,
      body: { error: E.adminRules },
    });
    expect(await t.call(admin, 'PUT', `/api/access/${admin.id}`, body)).toEqual({
      status: 403,
      body: { error: E.adminRules },
    });
    expect(await t.call(user, 'PUT', `/api/access/${user.id}`, body)).toEqual({
      status: 403,
      body: { error: E.forbidden },
    });
    // Admins may narrow a resident.
    expect(
      (await t.call(admin, 'PUT', `/api/access/${resident.id}`, { rooms: { [room.id]: 'view' } })).status,
    ).toBe(200);
    expect((await t.call(resident, 'GET', `/api/access/${resident.id}`)).body.rooms).toEqual({
      [room.id]: 'view',
    });
    expect((await t.call(user, 'GET', `/api/access/${resident.id}`)).status).toBe(403);
    await t.hearth.activity.flush();
    const refusals = (await t.call(admin, 'GET', `/api/activity?kind=access.change&actor=${resident.id}`))
      .body;
    expect(refusals.entries.map((e: { result: string }) => e.result)).toEqual([
      'refused',
      'refused',
      'refused',
      'ok',
    ]);
  });

  it("a room's rules go with the room", async () => {
    const { admin, room } = await setup();
    const user = await t.user('user');
    await t.call(admin, 'PUT', `/api/access/${user.id}`, { rooms: { [room.id]: 'view' } });
    expect((await t.call(admin, 'DELETE', `/api/rooms/${room.id}`)).status).toBe(204);
    expect((await t.call(admin, 'GET', `/api/access/${user.id}`)).body.rooms).toEqual({});
  });

  it('keeps the rules across a role change, or resets them with reset_access', async () => {
    const { admin, room } = await setup();
    const user = await t.user('user');
    const rules = { rooms: { [room.id]: 'view' }, devices: {} };
    await t.call(admin, 'PUT', `/api/access/${user.id}`, rules);
    expect((await t.call(admin, 'PATCH', `/api/auth/users/${user.id}`, { role: 'resident' })).status).toBe(
      200,
    );
    expect((await t.call(admin, 'GET', `/api/access/${user.id}`)).body).toEqual({
      user_id: user.id,
      ...rules,
    });
    expect(
      await t.call(admin, 'PATCH', `/api/auth/users/${user.id}`, { first_name: 'Ann', reset_access: true }),
    ).toEqual({ status: 400, body: { error: 'reset_access goes with a role' } });
    // A resident may not reset another resident's rules: nothing changes, the role neither.
    const resident = await t.user('resident');
    expect(
      await t.call(resident, 'PATCH', `/api/auth/users/${user.id}`, { role: 'resident', reset_access: true }),
    ).toEqual({ status: 403, body: { error: E.residentEdits } });
    const back = await t.call(admin, 'PATCH', `/api/auth/users/${user.id}`, {
      role: 'user',
      reset_access: true,
    });
    expect(back.body.role).toBe('user');
    expect((await t.call(admin, 'GET', `/api/access/${user.id}`)).body).toEqual({
      user_id: user.id,
      rooms: {},
      devices: {},
    });
    await t.hearth.activity.flush();
    const log = (await t.call(admin, 'GET', `/api/activity?kind=user.role&actor=${admin.id}`)).body.entries;
    expect(log[0]).toMatchObject({
      result: 'ok',
      detail: { user_id: user.id, role: 'user', reset_access: true },
    });
  });

  it("a purged device's rules go with it (the registry's row cascades)", async () => {
    const { admin, devices } = await setup();
    const user = await t.user('user');
    const gone = devices.at(-1)!;
    await t.call(admin, 'PUT', `/api/access/${user.id}`, {
      devices: { [gone.id]: 'view', [devices[0]!.id]: 'view' },
    });
    // What DELETE /api/devicehub/devices/removed/{id} does to the row, done directly (the simulator's
    // devices do not leave).
    await t.hearth.storage.db.deleteFrom('devicehub_devices').where('id', '=', gone.id).execute();
    expect((await t.call(admin, 'GET', `/api/access/${user.id}`)).body.devices).toEqual({
      [devices[0]!.id]: 'view',
    });
  });
});

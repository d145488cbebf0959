import type { Device, Room } from '@hearth/contracts';
import { describe, expect, it } from 'vitest';
import { accessToken, createUser, startTestApp, type TestApp } from '../../test/app.js';
import { testDatabases } from '../../test/databases.js';

const DEVICES = 4;

async function devicesOf(app: TestApp, token: string): Promise<Device[]> {
  const end = Date.now() + 8000;
  for (;;) {
    const response = await app.app.inject({
      url: '/api/devicehub/devices',
      headers: { authorization: `Bearer ${token}` },
    });
    const devices: Device[] = response.json();
    if (devices.length === DEVICES) return devices;
    if (Date.now() > end) throw new Error('the simulator did not list its devices in time');
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** docs/rooms.md#assignment: a device's room (and a dismissed suggestion) survive a restart. */
describe.each(testDatabases())('rooms after a restart on $name', ({ create }) => {
  it('keeps each device in its room, rooms, floors and favourites as they were', async () => {
    const database = await create();
    const env = { SIMULATOR: 'on', SIMULATOR_DEVICES: String(DEVICES) };
    let app = await startTestApp(database, env);
    try {
      const resident = await createUser(app, 'resident');
      let token = await accessToken(app, resident);
      const call = async (method: 'GET' | 'POST' | 'PUT' | 'PATCH', url: string, payload?: object) =>
        (
          await app.app.inject({
            method,
            url,
            headers: { authorization: `Bearer ${token}` },
            ...(payload ? { payload } : {}),
          })
        ).json();
      const [one, two, three] = (await devicesOf(app, token)) as [Device, Device, Device];
      const floor = await call('POST', '/api/floors', { name: 'Ground floor' });
      const kitchen: Room = await call('POST', '/api/rooms', {
        name: 'Kitchen',
        icon: 'utensils',
        floor_id: floor.id,
      });
      await call('PUT', `/api/rooms/${kitchen.id}/devices`, { device_ids: [one.id, two.id] });
      await call('PATCH', `/api/devicehub/devices/${three.id}`, { name: 'Hall/Light' });
      await call('PUT', '/api/rooms/unassigned/devices', { device_ids: [three.id] });
      await call('PUT', '/api/favourites', { device_ids: [two.id, one.id] });
      const rooms = await call('GET', '/api/rooms');

      await app.close();
      app = await startTestApp(database, env);
      token = await accessToken(app, resident);
      const after = new Map((await devicesOf(app, token)).map((d) => [d.id, d]));
      expect(after.get(one.id)?.room_id).toBe(kitchen.id);
      expect(after.get(two.id)?.room_id).toBe(kitchen.id);
      expect(after.get(three.id)).toMatchObject({ name: 'Hall/Light', room_id: null, suggested_room: null });
      expect(await call('GET', '/api/rooms')).toEqual(rooms);
      expect(await call('GET', '/api/favourites')).toEqual({ device_ids: [two.id, one.id] });
    } finally {
      await app.close();
      await database.drop();
    }
  });
});

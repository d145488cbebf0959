import { type Device, type Room, roomTopics } from '@hearth/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../../test/databases.js';
import {
  eventually,
  openStream,
  type StreamView,
  simulatedDevices,
  useStreamTestApp,
} from '../../test/device-stream.js';
import type { UserRecord } from '../users/index.js';

const DEVICES = 4;

/**
 * docs/access.md#deleting-a-room over the stream: a resident narrowed away from a room keeps not
 * seeing its devices while an admin deletes it (its rules become rules on the devices before they move).
 */
describe.each(testDatabases())('a deleted room on a narrowed stream on $name', ({ create }) => {
  const { t, prefix } = useStreamTestApp(create, DEVICES, 'room-rules');
  let admin: UserRecord;
  let devices: Device[];
  let origin: string;
  const streams: StreamView[] = [];

  beforeAll(async () => {
    admin = await t.user('admin');
    devices = await simulatedDevices(t, admin, DEVICES);
    origin = await t.hearth.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(() => {
    for (const view of streams) view.end();
  });

  it('never tells the narrowed resident of the deleted room’s devices', async () => {
    const office: Room = (await t.call(admin, 'POST', '/api/rooms', { name: 'Office' })).body;
    const hidden = devices.slice(0, 2).map((d) => d.id);
    await t.call(admin, 'PUT', `/api/rooms/${office.id}/devices`, { device_ids: hidden });
    const nres = await t.user('resident');
    await t.call(admin, 'PUT', `/api/access/${nres.id}`, { rooms: { [office.id]: 'none' } });
    const view = await openStream(origin, prefix, await t.tokenFor(nres));
    streams.push(view);
    await eventually(() => view.devices.size === DEVICES - hidden.length);

    const mark = view.messages.length;
    expect((await t.call(admin, 'DELETE', `/api/rooms/${office.id}`)).status).toBe(204);
    // A room it sees, created after: its room.upsert follows whatever the deletion told this connection.
    const after: Room = (await t.call(admin, 'POST', '/api/rooms', { name: 'Study' })).body;
    const upsert = `${prefix}/devicehub/${roomTopics.upsert}`;
    await eventually(() =>
      view.messages.slice(mark).some((m) => m.topic === upsert && m.payload.includes(after.id)),
    );
    // Neither the devices nor the room (docs/access.md#stream: a removed room goes to those who saw it).
    const told = view.messages
      .slice(mark)
      .filter((m) => [...hidden, office.id].some((id) => m.topic.endsWith(id) || m.payload.includes(id)));
    expect(told).toEqual([]);
    expect([...view.devices.keys()].filter((id) => hidden.includes(id))).toEqual([]);
  });

  it('tells the narrowed resident of the rooms it sees, the empty ones it creates included, and not of the hidden one', async () => {
    const vault: Room = (await t.call(admin, 'POST', '/api/rooms', { name: 'Vault' })).body;
    const nres = await t.user('resident');
    await t.call(admin, 'PUT', `/api/access/${nres.id}`, { rooms: { [vault.id]: 'none' } });
    const view = await openStream(origin, prefix, await t.tokenFor(nres));
    streams.push(view);
    await eventually(() => view.devices.size > 0);
    const mark = view.messages.length;
    const upsert = `${prefix}/devicehub/${roomTopics.upsert}`;
    await t.call(admin, 'PATCH', `/api/rooms/${vault.id}`, { icon: 'archive' });
    const garage: Room = (await t.call(nres, 'POST', '/api/rooms', { name: 'Garage' })).body;
    await eventually(() =>
      view.messages.slice(mark).some((m) => m.topic === upsert && m.payload.includes(garage.id)),
    );
    expect(view.messages.slice(mark).filter((m) => m.payload.includes(vault.id))).toEqual([]);
  });
});

import { type Device, type Floor, type Room, roomTopics } from '@hearth/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../../../test/databases.js';
import {
  eventually,
  openStream,
  type StreamView,
  simulatedDevices,
  useStreamTestApp,
} from '../../../test/device-stream.js';
import type { UserRecord } from '../../users/index.js';

const DEVICES = 4;

/**
 * docs/access.md#stream: floor events and room removals reach a connection only when it sees the
 * floor or room, as GET /api/rooms shows them (issue 32: a narrowed resident and a `user` were told
 * the names of floors holding only hidden rooms, and the ids of hidden rooms as they were deleted).
 */
describe.each(testDatabases())('floors and removed rooms on a narrowed stream on $name', ({ create }) => {
  const { t, prefix } = useStreamTestApp(create, DEVICES, 'edge-rooms');
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

  const stream = async (user: UserRecord) => {
    const view = await openStream(origin, prefix, await t.tokenFor(user));
    streams.push(view);
    await eventually(() => view.devices.size > 0);
    return view;
  };
  const topic = (relative: string) => `${prefix}/devicehub/${relative}`;
  /** The events of these topics the view got since `mark`, as [topic, id] pairs. */
  const told = (view: StreamView, mark: number, relative: string[]) =>
    view.messages
      .slice(mark)
      .filter((m) => relative.some((r) => m.topic === topic(r)))
      .map((m) => [m.topic.slice(topic('events/').length), (JSON.parse(m.payload) as { id: string }).id]);

  it('tells each connection of the floors and removed rooms it sees, and nobody else', async () => {
    const floor = async (name: string): Promise<Floor> =>
      (await t.call(admin, 'POST', '/api/floors', { name })).body;
    const room = async (name: string, floorId: string, ids: string[]): Promise<Room> => {
      const created: Room = (await t.call(admin, 'POST', '/api/rooms', { name, floor_id: floorId })).body;
      await t.call(admin, 'PUT', `/api/rooms/${created.id}/devices`, { device_ids: ids });
      return created;
    };
    const upstairs = await floor('Upstairs');
    const ground = await floor('Ground');
    const office = await room('Office', upstairs.id, [devices[0]!.id, devices[1]!.id]);
    const kitchen = await room('Kitchen', ground.id, [devices[2]!.id]);
    const nres = await t.user('resident');
    await t.call(admin, 'PUT', `/api/access/${nres.id}`, { rooms: { [office.id]: 'none' } });
    const usr = await t.user('user');
    await t.call(admin, 'PUT', `/api/access/${usr.id}`, { rooms: { [kitchen.id]: 'view' } });
    const free = await stream(await t.user('resident'));
    const narrowed = await stream(nres);
    const user = await stream(usr);
    const marks = [free, narrowed, user].map((view) => view.messages.length);

    const ok = (answer: { status: number }) => expect(answer.status).toBeLessThan(300);
    ok(await t.call(admin, 'PATCH', `/api/floors/${upstairs.id}`, { name: 'Loft' }));
    ok(await t.call(admin, 'PATCH', `/api/floors/${ground.id}`, { name: 'Ground floor' }));
    const cellar = await floor('Cellar');
    ok(await t.call(admin, 'DELETE', `/api/rooms/${office.id}`));
    ok(await t.call(admin, 'DELETE', `/api/floors/${upstairs.id}`));
    ok(await t.call(admin, 'DELETE', `/api/rooms/${kitchen.id}`));
    // Everyone sees the last: what the others were not told, they were not told before it either.
    for (const view of [free, narrowed, user])
      await eventually(() =>
        view.messages.some((m) => m.topic === topic(roomTopics.removed) && m.payload.includes(kitchen.id)),
      );

    const events = [roomTopics.floorUpsert, roomTopics.floorRemoved, roomTopics.removed];
    const [ofFree, ofNarrowed, ofUser] = [free, narrowed, user].map((view, i) =>
      told(view, marks[i]!, events),
    ) as [string[][], string[][], string[][]];
    expect(ofFree).toEqual(
      expect.arrayContaining([
        ['floor.upsert', upstairs.id],
        ['floor.upsert', ground.id],
        ['floor.upsert', cellar.id],
        ['room.removed', office.id],
        ['floor.removed', upstairs.id],
        ['room.removed', kitchen.id],
      ]),
    );
    // The narrowed resident sees the ground floor (its kitchen) and, managing rooms, the empty
    // cellar and the loft once the office is gone; never the office, nor the loft while it held it.
    expect(ofNarrowed).toEqual(
      expect.arrayContaining([
        ['floor.upsert', ground.id],
        ['floor.upsert', cellar.id],
        ['room.removed', kitchen.id],
      ]),
    );
    expect(ofNarrowed).not.toContainEqual(['room.removed', office.id]);
    expect(ofNarrowed.filter(([, id]) => id === upstairs.id)).toEqual([['floor.removed', upstairs.id]]);
    // The user sees the kitchen and its floor only.
    expect(ofUser.filter(([, id]) => id !== ground.id)).toEqual([['room.removed', kitchen.id]]);
    expect(ofUser).toContainEqual(['floor.upsert', ground.id]);
    const text = (view: StreamView, mark: number) => JSON.stringify(view.messages.slice(mark));
    expect(text(narrowed, marks[1]!)).not.toContain('Loft');
    expect(text(narrowed, marks[1]!)).not.toContain(office.id);
    for (const hidden of ['Loft', 'Cellar', office.id, upstairs.id, cellar.id])
      expect(text(user, marks[2]!)).not.toContain(hidden);
  });
});

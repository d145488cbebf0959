import { type Device, type Floor, type Room, roomTopics } from '@hearth/contracts';
import mqtt, { type MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../test/app.js';
import { testDatabases } from '../../test/databases.js';
import { waitFor } from '../../test/wait.js';
import type { UserRecord } from '../users/index.js';

const DEVICES = 3;

/**
 * docs/rooms.md#events: what another open page sees of room changes, over the device stream
 * (MQTT.js over /ws/devicehub, like a browser), while a resident changes rooms over REST.
 */
describe.each(testDatabases())('room events on the device stream on $name', ({ create }) => {
  const prefix = `hearth-rooms-${crypto.randomUUID().slice(0, 8)}`;
  const t = useTestApp({
    database: create,
    // Its devices stay online: a simulated device dropping off the network (or coming back) is a
    // `device.upsert` too, which the tests would count among those whose room changed.
    env: {
      SIMULATOR: 'on',
      SIMULATOR_DEVICES: String(DEVICES),
      SIMULATOR_DROPOUTS: 'off',
      DEVICEHUB_TOPIC_PREFIX: prefix,
    },
  });
  let resident: UserRecord;
  let browser: MqttClient;
  const messages: { topic: string; payload: string }[] = [];
  const P = `${prefix}/devicehub`;

  /** Resolves with the payloads on `topic` that arrive after `since`, once `count` are there. */
  const seen = async <T>(since: number, topic: string, count = 1): Promise<T[]> =>
    waitFor(() => {
      const found = messages.slice(since).filter((m) => m.topic === `${P}/${topic}`);
      return found.length >= count ? found.map((m) => JSON.parse(m.payload) as T) : undefined;
    });

  beforeAll(async () => {
    resident = await t.user('resident');
    await waitFor(
      async () => (await t.call(resident, 'GET', '/api/devicehub/devices')).body.length === DEVICES,
    );
    const address = await t.hearth.app.listen({ port: 0, host: '127.0.0.1' });
    // The second page: another resident's browser.
    const other = await t.user('resident');
    browser = await mqtt.connectAsync(`${address.replace(/^http/, 'ws')}/ws/devicehub`, {
      protocolVersion: 4,
      clean: true,
      reconnectPeriod: 0,
      clientId: `rooms-${crypto.randomUUID().slice(0, 8)}`,
      username: 'browser',
      password: await t.tokenFor(other),
    });
    browser.on('message', (topic, payload) => messages.push({ topic, payload: payload.toString() }));
    await browser.subscribeAsync([`${P}/devices/#`, `${P}/events/#`], { qos: 0 });
  });
  afterAll(() => {
    browser?.end(true);
  });

  it('sees rooms created, moved and deleted, and each device whose room changed', async () => {
    const devices: Device[] = (await t.call(resident, 'GET', '/api/devicehub/devices')).body;
    const [one, two] = devices as [Device, Device];

    let mark = messages.length;
    const kitchen: Room = (
      await t.call(resident, 'POST', '/api/rooms', { name: 'Kitchen', icon: 'cooking-pot' })
    ).body;
    expect(await seen<Room>(mark, roomTopics.upsert)).toEqual([kitchen]);
    mark = messages.length;
    const hall: Room = (await t.call(resident, 'POST', '/api/rooms', { name: 'Hall' })).body;
    await seen<Room>(mark, roomTopics.upsert);

    mark = messages.length;
    await t.call(resident, 'PATCH', `/api/rooms/${hall.id}`, { order: 0 });
    const reordered = await seen<Room>(mark, roomTopics.upsert, 2);
    expect(reordered).toEqual(
      expect.arrayContaining([
        { ...hall, order: 0 },
        { ...kitchen, order: 1 },
      ]),
    );

    mark = messages.length;
    await t.call(resident, 'PUT', `/api/rooms/${kitchen.id}/devices`, { device_ids: [one.id, two.id] });
    const moved = await seen<Device>(mark, 'events/device.upsert', 2);
    expect(moved.map((d) => [d.id, d.room_id])).toEqual([
      [one.id, kitchen.id],
      [two.id, kitchen.id],
    ]);
    expect(moved[0]).toMatchObject({ name: one.name, external_id: one.external_id, suggested_room: null });

    // Deleting the room: its devices' upserts (unassigned), then the removal.
    mark = messages.length;
    await t.call(resident, 'DELETE', `/api/rooms/${kitchen.id}`);
    const removed = await seen<{ id: string }>(mark, roomTopics.removed);
    expect(removed).toEqual([{ id: kitchen.id }]);
    const after = messages.slice(mark);
    const upserts = after
      .filter((m) => m.topic === `${P}/events/device.upsert`)
      .map((m) => JSON.parse(m.payload));
    expect(upserts.map((d: Device) => [d.id, d.room_id])).toEqual([
      [one.id, null],
      [two.id, null],
    ]);
    const removalAt = after.findIndex((m) => m.topic === `${P}/${roomTopics.removed}`);
    expect(after.findLastIndex((m) => m.topic === `${P}/events/device.upsert`)).toBeLessThan(removalAt);
    // Hall closed the gap: order 0 already, so no upsert for it.
    expect(after.some((m) => m.topic === `${P}/${roomTopics.upsert}`)).toBe(false);
  });

  it('sees floors created and deleted, and the rooms that lose their floor', async () => {
    let mark = messages.length;
    const floor: Floor = (await t.call(resident, 'POST', '/api/floors', { name: 'Upstairs' })).body;
    expect(await seen<Floor>(mark, roomTopics.floorUpsert)).toEqual([floor]);
    mark = messages.length;
    const study: Room = (await t.call(resident, 'POST', '/api/rooms', { name: 'Study', floor_id: floor.id }))
      .body;
    expect(await seen<Room>(mark, roomTopics.upsert)).toEqual([study]);

    mark = messages.length;
    await t.call(resident, 'DELETE', `/api/floors/${floor.id}`);
    expect(await seen(mark, roomTopics.floorRemoved)).toEqual([{ id: floor.id }]);
    expect(await seen<Room>(mark, roomTopics.upsert)).toEqual([{ ...study, floor_id: null }]);
  });

  it('tells the pages that a user replaced their favourites, naming only the user', async () => {
    const devices: Device[] = (await t.call(resident, 'GET', '/api/devicehub/devices')).body;
    const mark = messages.length;
    await t.call(resident, 'PUT', '/api/favourites', { device_ids: [devices[0]!.id] });
    expect(await seen(mark, roomTopics.favouritesChanged)).toEqual([{ user_id: resident.id }]);
  });
});

import { type Device, type Room, roomTopics } from '@hearth/contracts';
import mqtt, { type MqttClient } from 'mqtt';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { accessToken, callInstance, createUser, startTestApp, type TestApp } from '../../test/app.js';
import { postgresDatabase, type TestDatabase } from '../../test/databases.js';
import { openStream } from '../../test/device-stream.js';
import { describeWithService, serviceUrl } from '../../test/services.js';
import { waitFor as poll } from '../../test/wait.js';

const waitFor = <T>(probe: () => Promise<T | undefined | false> | T | undefined | false) =>
  poll(probe, 8_000);

const DEVICES = 3;

/**
 * docs/rooms.md#several-instances: two instances on one PostgreSQL database and one Mosquitto; a
 * room change made through one reaches the other's device list and the pages connected to it.
 */
describeWithService('TEST_MQTT_URL', 'room changes across two instances', (mqttUrl) => {
  const unique = crypto.randomUUID().slice(0, 8);
  const prefix = `hearth-rooms-${unique}`;
  const base = `z2m-rooms-${unique}`;
  let database: TestDatabase;
  let a: TestApp;
  let b: TestApp;
  let tokenA: string;
  let tokenB: string;
  let browser: MqttClient;
  let addressB: string;
  const messages: { topic: string; payload: string }[] = [];

  const listOn = (app: TestApp, token: string): Promise<Device[]> =>
    callInstance(app, token, 'GET', '/api/devicehub/devices');

  beforeAll(async () => {
    const pgUrl = serviceUrl('TEST_DATABASE_URL');
    if (!pgUrl) throw new Error('two instances share a PostgreSQL database: TEST_DATABASE_URL');
    database = await postgresDatabase(pgUrl);
    const env = { MQTT_URL: mqttUrl, DEVICEHUB_TOPIC_PREFIX: prefix, ZIGBEE2MQTT_BASE_TOPIC: base };
    a = await startTestApp(database, { ...env, SIMULATOR: 'on', SIMULATOR_DEVICES: String(DEVICES) });
    b = await startTestApp(database, env);
    const resident = await createUser(a, 'resident');
    tokenA = await accessToken(a, resident);
    tokenB = await accessToken(b, resident);
    await waitFor(async () => (await listOn(a, tokenA)).length === DEVICES);
    await waitFor(async () => (await listOn(b, tokenB)).length === DEVICES);
    const address = await b.app.listen({ port: 0, host: '127.0.0.1' });
    addressB = address;
    browser = await mqtt.connectAsync(`${address.replace(/^http/, 'ws')}/ws/devicehub`, {
      protocolVersion: 4,
      reconnectPeriod: 0,
      clientId: `rooms-b-${unique}`,
      username: 'browser',
      password: tokenB,
    });
    browser.on('message', (topic, payload) => messages.push({ topic, payload: payload.toString() }));
    await browser.subscribeAsync(`${prefix}/devicehub/events/#`, { qos: 0 });
  });
  afterAll(async () => {
    browser?.end(true);
    await a?.close();
    await b?.close();
    await database?.drop();
    // The simulator's retained messages stay on the shared broker: clear them.
    const cleaner = await mqtt.connectAsync(mqttUrl, { reconnectPeriod: 0 });
    const retained = new Set<string>();
    cleaner.on('message', (topic, payload, packet) => {
      if (packet.retain && payload.length > 0) retained.add(topic);
    });
    await cleaner.subscribeAsync(`${base}/#`);
    await new Promise((r) => setTimeout(r, 300));
    for (const topic of retained) await cleaner.publishAsync(topic, '', { retain: true });
    await cleaner.endAsync();
  });

  it('shows a room made and filled through one instance on the other, live', async () => {
    const kitchen: Room = await callInstance(a, tokenA, 'POST', '/api/rooms', { name: 'Kitchen' });
    const upsert = await waitFor(() =>
      messages.find((m) => m.topic === `${prefix}/devicehub/${roomTopics.upsert}`),
    );
    expect(JSON.parse(upsert.payload)).toEqual(kitchen);
    expect((await callInstance(b, tokenB, 'GET', '/api/rooms')).rooms).toEqual([kitchen]);

    const [one] = await listOn(a, tokenA);
    await callInstance(a, tokenA, 'PUT', `/api/rooms/${kitchen.id}/devices`, { device_ids: [one!.id] });
    const moved = await waitFor(() =>
      messages.find(
        (m) =>
          m.topic === `${prefix}/devicehub/events/device.upsert` &&
          JSON.parse(m.payload).room_id === kitchen.id,
      ),
    );
    expect(JSON.parse(moved.payload)).toMatchObject({ id: one!.id, room_id: kitchen.id });
    expect((await listOn(b, tokenB)).find((d) => d.id === one!.id)?.room_id).toBe(kitchen.id);

    await callInstance(a, tokenA, 'DELETE', `/api/rooms/${kitchen.id}`);
    const removed = await waitFor(() =>
      messages.find((m) => m.topic === `${prefix}/devicehub/${roomTopics.removed}`),
    );
    expect(JSON.parse(removed.payload)).toEqual({ id: kitchen.id });
    expect((await listOn(b, tokenB)).find((d) => d.id === one!.id)?.room_id).toBeNull();
    // Each change reached B's pages once (B did not also take its own copy for a new one).
    expect(messages.filter((m) => m.topic.endsWith(roomTopics.upsert))).toHaveLength(1);
  });

  it('refuses the same new name sent to both instances at once with the rule, not a 500, and keeps orders apart', async () => {
    const name = `Den ${unique}`;
    const answers = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        (i % 2 ? a : b).app.inject({
          method: 'POST',
          url: '/api/rooms',
          headers: { authorization: `Bearer ${i % 2 ? tokenA : tokenB}` },
          payload: { name: i === 0 ? name : name.toUpperCase() },
        }),
      ),
    );
    expect(answers.map((r) => r.statusCode).sort()).toEqual([201, 400, 400, 400, 400, 400]);
    for (const refused of answers.filter((r) => r.statusCode === 400)) {
      expect(refused.json().error).toMatch(/^A room named ".*" already exists without a floor$/);
    }
    // Rooms created at once through both instances still take places 0, 1, 2, … without a repeat.
    await Promise.all(
      ['Loft', 'Porch', 'Attic', 'Cellar'].map((room, i) =>
        callInstance(i % 2 ? a : b, i % 2 ? tokenA : tokenB, 'POST', '/api/rooms', {
          name: `${room} ${unique}`,
        }),
      ),
    );
    const { rooms } = await callInstance(a, tokenA, 'GET', '/api/rooms');
    expect(rooms.map((room: Room) => room.order)).toEqual(rooms.map((_: Room, i: number) => i));
  });

  it("keeps a deleted room's devices from a resident narrowed away from it, on the other instance too", async () => {
    const admin = await createUser(a, 'admin');
    const adminToken = await accessToken(a, admin);
    const office: Room = await callInstance(a, adminToken, 'POST', '/api/rooms', {
      name: `Office ${unique}`,
    });
    const [hidden] = await listOn(a, adminToken);
    await callInstance(a, adminToken, 'PUT', `/api/rooms/${office.id}/devices`, { device_ids: [hidden!.id] });
    const narrowed = await createUser(a, 'resident');
    await callInstance(a, adminToken, 'PUT', `/api/access/${narrowed.id}`, {
      rooms: { [office.id]: 'none' },
    });
    const view = await openStream(addressB, prefix, await accessToken(b, narrowed));
    try {
      await waitFor(() => view.devices.size === DEVICES - 1);
      const mark = view.messages.length;
      await callInstance(a, adminToken, 'DELETE', `/api/rooms/${office.id}`);
      // A room it sees, created after: its room.upsert follows what the deletion told B's connection.
      const after: Room = await callInstance(a, adminToken, 'POST', '/api/rooms', {
        name: `Study ${unique}`,
      });
      await waitFor(() =>
        view.messages
          .slice(mark)
          .some(
            (m) => m.topic === `${prefix}/devicehub/${roomTopics.upsert}` && m.payload.includes(after.id),
          ),
      );
      // Neither the device nor the room (docs/access.md#stream: a removed room goes to those who saw it).
      const told = view.messages
        .slice(mark)
        .filter((m) => [hidden!.id, office.id].some((id) => m.topic.endsWith(id) || m.payload.includes(id)));
      expect(told).toEqual([]);
    } finally {
      view.end();
    }
  });

  it('ignores what is not a room change', async () => {
    const publisher = await mqtt.connectAsync(mqttUrl, { reconnectPeriod: 0 });
    const roomEvents = () => messages.filter((m) => /\/events\/(room|floor)\./.test(m.topic)).length;
    const before = roomEvents();
    await publisher.publishAsync(
      `${prefix}/instances/rooms`,
      JSON.stringify({ origin: 'x', change: { rooms: 'no' } }),
    );
    await publisher.publishAsync(`${prefix}/instances/rooms`, 'not json');
    await new Promise((r) => setTimeout(r, 300));
    await publisher.endAsync();
    expect(roomEvents()).toBe(before);
    expect(b.logs.text).toContain('room change from the bus is not one; ignored');
  });
});

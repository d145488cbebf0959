import type { Device, Room } from '@hearth/contracts';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { accessToken, callInstance, createUser, startTestApp, type TestApp } from '../../test/app.js';
import { postgresDatabase, type TestDatabase } from '../../test/databases.js';
import { eventually, openStream, type StreamView } from '../../test/device-stream.js';
import { describeWithService, serviceUrl } from '../../test/services.js';
import type { UserRecord } from '../users/index.js';

const DEVICES = 4;

/**
 * docs/access.md#several-instances: two instances on one PostgreSQL database and one Mosquitto; a
 * rule changed through one reaches the streams open on the other within 2 s.
 */
describeWithService('TEST_MQTT_URL', 'access changes across two instances', (mqttUrl) => {
  const unique = crypto.randomUUID().slice(0, 8);
  const prefix = `hearth-access-${unique}`;
  let database: TestDatabase;
  let a: TestApp;
  let b: TestApp;
  let admin: UserRecord;
  let user: UserRecord;
  let stream: StreamView;
  let devices: Device[];

  const call = async (
    app: TestApp,
    who: UserRecord,
    method: 'GET' | 'POST' | 'PUT',
    url: string,
    payload?: object,
  ) => callInstance(app, await accessToken(app, who), method, url, payload);

  beforeAll(async () => {
    const pgUrl = serviceUrl('TEST_DATABASE_URL');
    if (!pgUrl) throw new Error('two instances share a PostgreSQL database: TEST_DATABASE_URL');
    database = await postgresDatabase(pgUrl);
    const env = {
      MQTT_URL: mqttUrl,
      DEVICEHUB_TOPIC_PREFIX: prefix,
      ZIGBEE2MQTT_BASE_TOPIC: `z2m-access-${unique}`,
    };
    a = await startTestApp(database, { ...env, SIMULATOR: 'on', SIMULATOR_DEVICES: String(DEVICES) });
    b = await startTestApp(database, env);
    admin = await createUser(a, 'admin');
    user = await createUser(a, 'user');
    devices = await eventually(async () => {
      const listed: Device[] = await call(b, admin, 'GET', '/api/devicehub/devices');
      return listed.length === DEVICES && listed;
    }, 8000);
    await call(a, admin, 'PUT', `/api/access/${user.id}`, { devices: { [devices[0]!.id]: 'view' } });
    const address = await b.app.listen({ port: 0, host: '127.0.0.1' });
    stream = await openStream(address, prefix, await accessToken(b, user));
  });
  afterAll(async () => {
    stream?.end();
    await a?.close();
    await b?.close();
    await database?.drop();
  });

  it("reaches the other instance's open streams within 2 s, devices arriving and going", async () => {
    await eventually(() => stream.devices.size === 1);
    const room: Room = await call(a, admin, 'POST', '/api/rooms', { name: 'Guest room' });
    await call(a, admin, 'PUT', `/api/rooms/${room.id}/devices`, {
      device_ids: [devices[1]!.id, devices[2]!.id],
    });
    await call(a, admin, 'PUT', `/api/access/${user.id}`, { rooms: { [room.id]: 'control' } });
    const start = Date.now();
    await eventually(
      () =>
        stream.devices.size === 2 &&
        stream.devices.get(devices[1]!.id)?.access === 'control' &&
        stream.devices.get(devices[2]!.id)?.state !== undefined,
      2000,
    );
    expect(Date.now() - start).toBeLessThan(2000);
    expect(stream.devices.has(devices[0]!.id)).toBe(false);
    const listed: Device[] = await call(b, user, 'GET', '/api/devicehub/devices');
    expect(listed.map((d) => d.id).sort()).toEqual([devices[1]!.id, devices[2]!.id].sort());
    // A room assignment made through the first instance moves the device out of view on the second.
    await call(a, admin, 'PUT', '/api/rooms/unassigned/devices', { device_ids: [devices[2]!.id] });
    await eventually(() => !stream.devices.has(devices[2]!.id), 2000);
  });
});

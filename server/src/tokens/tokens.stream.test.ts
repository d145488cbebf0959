import type { ActivityEntry, CreatedApiToken, Device } from '@hearth/contracts';
import mqtt from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../../test/databases.js';
import {
  eventually,
  openStream,
  type StreamView,
  simulatedDevices,
  stateFor,
  useStreamTestApp,
} from '../../test/device-stream.js';
import type { UserRecord } from '../users/index.js';
import { TOKENS_ERRORS as E } from './tokens.errors.js';

const DEVICES = 4;

/** docs/api.md#following-the-stream: an API token as the stream's MQTT password, on both databases. */
describe.each(testDatabases())('API tokens on the device stream on $name', ({ create }) => {
  const { t, prefix } = useStreamTestApp(create, DEVICES, 'tokens');
  let admin: UserRecord;
  let origin: string;
  let devices: Device[];
  let roomId: string;
  const streams: StreamView[] = [];

  beforeAll(async () => {
    admin = await t.user('admin');
    devices = await simulatedDevices(t, admin, DEVICES);
    roomId = (await t.call(admin, 'POST', '/api/rooms', { name: 'Hall' })).body.id;
    await t.call(admin, 'PUT', `/api/rooms/${roomId}/devices`, { device_ids: [devices[0]!.id] });
    origin = await t.hearth.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(() => {
    for (const stream of streams) stream.end();
  });

  const newToken = async (owner: UserRecord, body: Record<string, unknown> = {}): Promise<CreatedApiToken> =>
    (
      await t.call(owner, 'POST', '/api/auth/tokens', {
        name: 'Node-RED',
        expires_in: 'never',
        scope: 'control',
        ...body,
      })
    ).body;
  const open = async (token: string) => {
    const stream = await openStream(origin, prefix, token);
    streams.push(stream);
    return stream;
  };
  const closed = (stream: StreamView) =>
    new Promise<void>((resolve) => {
      if (stream.client.disconnected) resolve();
      stream.client.once('close', () => resolve());
    });

  it('streams the devices a narrowed token reaches, at its level', async () => {
    const hall = await newToken(admin, { scope: 'read', rooms: [roomId] });
    const stream = await open(hall.token);
    await eventually(() => stream.devices.get(devices[0]!.id)?.state !== undefined);
    expect([...stream.devices.keys()]).toEqual([devices[0]!.id]);
    // A read token's command is refused on its reply topic, and recorded with the token as actor.
    await stream.publish('device.set', { device_id: devices[0]!.id, ...stateFor(devices[0]!) });
    await eventually(() => stream.refusals.length === 1);
    expect(stream.refusals[0]).toMatchObject({ kind: 'refused', device_id: devices[0]!.id });
  });

  it('records a command over the stream with the api actor', async () => {
    const created = await newToken(admin, { name: 'Stream Deck' });
    const stream = await open(created.token);
    await eventually(() => stream.devices.size === DEVICES);
    const lamp = devices.find((device) => Object.keys(stateFor(device).state).length > 0)!;
    await stream.publish('device.set', { device_id: lamp.id, ...stateFor(lamp) });
    const entry = await eventually(async () => {
      const found: ActivityEntry[] = (await t.call(admin, 'GET', `/api/activity?actor=${created.id}`)).body
        .entries;
      return found.find((each) => each.kind === 'device.command');
    });
    expect(entry, JSON.stringify(entry.detail)).toMatchObject({
      result: 'ok',
      actor: { type: 'api', id: created.id, label: 'Stream Deck', owner: { id: admin.id } },
      detail: { via: 'stream' },
    });
  });

  it('refuses a wrong or revoked token at CONNECT, and closes an open stream within 2 s of its revocation', async () => {
    const refused = (password: string) =>
      mqtt
        .connectAsync(`${origin.replace(/^http/, 'ws')}/ws/devicehub`, {
          protocolVersion: 4,
          reconnectPeriod: 0,
          username: 'script',
          password,
        })
        .then(
          (client) => {
            client.end(true);
            return 'connected';
          },
          (error: Error) => error.message,
        );
    expect(await refused(`hearth_${'C'.repeat(40)}`)).toMatch(/Bad username or password|Not authorized/);
    const created = await newToken(admin);
    const stream = await open(created.token);
    await eventually(() => stream.devices.size === DEVICES);
    const revokedAt = Date.now();
    const gone = closed(stream);
    expect((await t.call(admin, 'DELETE', `/api/auth/tokens/${created.id}`)).status).toBe(204);
    await gone;
    expect(Date.now() - revokedAt).toBeLessThan(2000);
    expect(await refused(created.token)).toMatch(/Bad username or password|Not authorized/);
  });

  it("closes a token's stream within 2 s when it is revoked behind this instance's back (another instance)", async () => {
    const created = await newToken(admin);
    const stream = await open(created.token);
    await eventually(() => stream.devices.size === DEVICES);
    const gone = closed(stream);
    const revokedAt = Date.now();
    // As another instance does it: straight in the database, no word to this one.
    await t.hearth.storage.db
      .updateTable('api_tokens')
      .set({ revoked_at: new Date().toISOString() })
      .where('id', '=', created.id)
      .execute();
    await gone;
    expect(Date.now() - revokedAt).toBeLessThan(2000);
  });

  it('answers accounts-API refusals the same with the token as a cookie-less Bearer', async () => {
    const created = await newToken(admin);
    const response = await t.app.inject({
      method: 'GET',
      url: '/api/auth/sessions',
      headers: { authorization: `Bearer ${created.token}` },
    });
    expect(response.json()).toEqual({ error: E.accountsApi });
  });
});

import type { ActivityEntry, CreatedPass, Device } from '@hearth/contracts';
import mqtt, { type MqttClient } from 'mqtt';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../test/app.js';
import { testDatabases } from '../../test/databases.js';
import { waitFor } from '../../test/wait.js';
import type { UserRecord } from '../users/index.js';

const PREFIX = 'hearth/devicehub';

const hour = 3_600_000;

interface Guest {
  client: MqttClient;
  clientId: string;
  messages: { topic: string; payload: string }[];
  closedAt: () => number | undefined;
}

/** docs/passes.md#stream on both databases: a pass's page on /ws/devicehub (user `pass`, the token as password). */
describe.each(testDatabases())('guest passes on the device stream on $name', ({ create }) => {
  const t = useTestApp({ database: create, env: { SIMULATOR: 'on', SIMULATOR_DEVICES: '6' } });
  let resident: UserRecord;
  let admin: UserRecord;
  let wsUrl: string;
  let devices: Device[];
  let lamp: Device;
  let other: Device;
  const open: MqttClient[] = [];

  beforeAll(async () => {
    resident = await t.user('resident');
    admin = await t.user('admin');
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    wsUrl = `${address.replace(/^http/, 'ws')}/ws/devicehub`;
    devices = await waitFor(async () => {
      const list: Device[] = (await t.call(resident, 'GET', '/api/devicehub/devices')).body;
      return list.length === 6 ? list : undefined;
    });
    lamp = devices.find((d) => d.name === 'Living room lamp')!;
    other = devices.find((d) => d.name === 'Hallway lamp')!;
  });
  afterEach(() => {
    for (const client of open.splice(0)) client.end(true);
  });

  const newPass = async (body: Record<string, unknown> = {}) => {
    const created = await t.call(resident, 'POST', '/api/passes', {
      label: 'Stream guest',
      devices: [lamp.id],
      level: 'control',
      ends_at: new Date(Date.now() + 2 * hour).toISOString(),
      ...body,
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const pass = created.body as CreatedPass;
    return { pass, token: pass.url.split('/pass/')[1]! };
  };
  const connect = async (password: string): Promise<Guest> => {
    const clientId = `rt-${Date.now()}-${Math.floor(Math.random() * 1000)}`;
    const client = await mqtt.connectAsync(wsUrl, {
      protocolVersion: 4,
      clean: true,
      reconnectPeriod: 0,
      clientId,
      username: 'pass',
      password,
    });
    open.push(client);
    const messages: Guest['messages'] = [];
    let closedAt: number | undefined;
    client.on('message', (topic, payload) => messages.push({ topic, payload: payload.toString() }));
    client.on('close', () => {
      closedAt ??= Date.now();
    });
    await client.subscribeAsync(
      [`${PREFIX}/devices/#`, `${PREFIX}/events/#`, `${PREFIX}/replies/${clientId}`],
      {
        qos: 0,
      },
    );
    return { client, clientId, messages, closedAt: () => closedAt };
  };
  const stateOf = async (id: string) =>
    ((await t.call(resident, 'GET', '/api/devicehub/devices')).body as Device[]).find((d) => d.id === id)!
      .state;

  it('delivers only the devices of the pass', async () => {
    const { token } = await newPass({ devices: [lamp.id] });
    const guest = await connect(token);
    await waitFor(async () => guest.messages.some((m) => m.topic === `${PREFIX}/devices/${lamp.id}`));
    // Everything retained has arrived by now; another device's state changes meanwhile too.
    await t.call(resident, 'POST', `/api/devicehub/devices/${other.id}/commands`, {
      state: { brightness: 77 },
    });
    await new Promise((r) => setTimeout(r, 600));
    const deviceTopics = new Set(
      guest.messages.filter((m) => m.topic.startsWith(`${PREFIX}/devices/`)).map((m) => m.topic),
    );
    expect([...deviceTopics]).toEqual([`${PREFIX}/devices/${lamp.id}`]);
    for (const m of guest.messages.filter((m) => m.topic === `${PREFIX}/events/device.upsert`)) {
      expect(JSON.parse(m.payload).id).toBe(lamp.id);
    }
  });

  it('carries out commands on its devices at control, refuses others on the reply topic, records the pass', async () => {
    const since = new Date().toISOString();
    const { pass, token } = await newPass({ devices: [lamp.id] });
    const guest = await connect(token);
    const wasOn = String((await stateOf(lamp.id)).state).toUpperCase() === 'ON';
    await guest.client.publishAsync(
      `${PREFIX}/commands/device.set`,
      JSON.stringify({ device_id: lamp.id, state: { state: wasOn ? 'OFF' : 'ON' } }),
    );
    await waitFor(
      async () => String((await stateOf(lamp.id)).state).toUpperCase() === (wasOn ? 'OFF' : 'ON'),
    );
    await guest.client.publishAsync(
      `${PREFIX}/commands/device.set`,
      JSON.stringify({ device_id: other.id, state: { state: 'ON' } }),
    );
    const reply = await waitFor(async () =>
      guest.messages.find((m) => m.topic === `${PREFIX}/replies/${guest.clientId}`),
    );
    expect(JSON.parse(reply.payload)).toEqual({
      kind: 'refused',
      device_id: other.id,
      error: 'Device not found',
    });
    const entries: ActivityEntry[] = (
      await t.call(admin, 'GET', `/api/activity?kind=device.command&from=${since}`)
    ).body.entries;
    const byPass = entries.filter((e) => e.actor.type === 'pass');
    expect(byPass.map((e) => [e.actor, e.device_id, e.result]).reverse()).toEqual([
      [{ type: 'pass', id: pass.id, label: 'Stream guest' }, lamp.id, 'ok'],
      [{ type: 'pass', id: pass.id, label: 'Stream guest' }, other.id, 'refused'],
    ]);
  });

  it('a view pass may not command over the stream', async () => {
    const { token } = await newPass({ devices: [lamp.id], level: 'view' });
    const guest = await connect(token);
    await guest.client.publishAsync(
      `${PREFIX}/commands/device.set`,
      JSON.stringify({ device_id: lamp.id, state: { state: 'ON' } }),
    );
    const reply = await waitFor(async () =>
      guest.messages.find((m) => m.topic === `${PREFIX}/replies/${guest.clientId}`),
    );
    expect(JSON.parse(reply.payload).error).toBe('You may only view this device, not control it');
  });

  it('refuses a wrong, revoked, paused or not yet valid pass at CONNECT', async () => {
    await expect(connect('A'.repeat(43))).rejects.toThrow();
    const revoked = await newPass();
    await t.call(resident, 'DELETE', `/api/passes/${revoked.pass.id}`);
    await expect(connect(revoked.token)).rejects.toThrow();
    const paused = await newPass();
    await t.call(resident, 'PATCH', `/api/passes/${paused.pass.id}`, { paused: true });
    await expect(connect(paused.token)).rejects.toThrow();
    const later = await newPass({ starts_at: new Date(Date.now() + hour).toISOString() });
    await expect(connect(later.token)).rejects.toThrow();
  });

  it.each([
    ['revoked', (id: string) => t.call(resident, 'DELETE', `/api/passes/${id}`)],
    ['paused', (id: string) => t.call(admin, 'PATCH', `/api/passes/${id}`, { paused: true })],
  ])('cuts an open connection off at once when the pass is %s', async (_what, change) => {
    const { pass, token } = await newPass();
    const guest = await connect(token);
    const changed = Date.now();
    await change(pass.id);
    await waitFor(async () => guest.closedAt() !== undefined, 3000);
    expect(guest.closedAt()! - changed).toBeLessThan(1500);
  });

  it('cuts an open connection off within two seconds of the pass ending', async () => {
    const endsAt = Date.now() + 1500;
    const { token } = await newPass({ ends_at: new Date(endsAt).toISOString() });
    const guest = await connect(token);
    await waitFor(async () => guest.closedAt() !== undefined, 5000);
    expect(guest.closedAt()! - endsAt).toBeLessThan(2000);
  });

  it('cuts an open connection off when the pass is revoked straight in the database (another instance)', async () => {
    const { pass, token } = await newPass();
    const guest = await connect(token);
    const revoked = Date.now();
    await t.hearth.storage.db
      .updateTable('passes')
      .set({ revoked_at: new Date().toISOString() })
      .where('id', '=', pass.id)
      .execute();
    await waitFor(async () => guest.closedAt() !== undefined, 4000);
    expect(guest.closedAt()! - revoked).toBeLessThan(2000);
  });
});

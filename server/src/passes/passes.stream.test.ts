import type { ActivityEntry, CreatedPass, Device } from '@hearth/contracts';
import mqtt, { type MqttClient } from 'mqtt';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../test/app.js';
import { testDatabases } from '../../test/databases.js';
import { waitFor } from '../../test/wait.js';
import type { UserRecord } from '../users/index.js';
import { PASS_LOOKUPS_PER_MINUTE } from './passes.routes.js';

const PREFIX = 'hearth/devicehub';

const hour = 3_600_000;

let addresses = 0;
const nextAddress = () => `198.51.100.${++addresses}`;

interface Guest {
  client: MqttClient;
  clientId: string;
  messages: { topic: string; payload: string }[];
  closedAt: () => number | undefined;
}

/** docs/passes.md#stream on both databases: a pass's page on /ws/devicehub (user `pass`, the token as password). */
describe.each(testDatabases())('guest passes on the device stream on $name', ({ create }) => {
  // Behind a proxy on loopback, so each test's guest can come from an address of its own.
  const t = useTestApp({
    database: create,
    env: { SIMULATOR: 'on', SIMULATOR_DEVICES: '6', TRUST_PROXY: '127.0.0.1' },
  });
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
  const connect = async (password: string, from = nextAddress(), userAgent?: string): Promise<Guest> => {
    const clientId = `rt-${Date.now()}-${Math.floor(Math.random() * 1000)}`;
    const client = await mqtt.connectAsync(wsUrl, {
      protocolVersion: 4,
      clean: true,
      reconnectPeriod: 0,
      clientId,
      username: 'pass',
      password,
      wsOptions: { headers: { 'x-forwarded-for': from, ...(userAgent ? { 'user-agent': userAgent } : {}) } },
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
    const guest = await connect(token, '203.0.113.9');
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
    // The guest's own address, as the trusted proxy forwarded it, not the proxy's.
    expect(byPass.map((e) => [e.actor, e.device_id, e.result, e.ip]).reverse()).toEqual([
      [{ type: 'pass', id: pass.id, label: 'Stream guest' }, lamp.id, 'ok', '203.0.113.9'],
      [{ type: 'pass', id: pass.id, label: 'Stream guest' }, other.id, 'refused', '203.0.113.9'],
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

  /** This pass's `pass.use` entries since `since`, oldest first. */
  const usesOf = async (passId: string, since: string): Promise<ActivityEntry[]> =>
    (
      (await t.call(admin, 'GET', `/api/activity?kind=pass.use&from=${since}`)).body
        .entries as ActivityEntry[]
    )
      .filter((entry) => entry.actor.id === passId)
      .reverse();

  it('records each CONNECT once, with its address and client, and not the re-reads of the open connection', async () => {
    const since = new Date().toISOString();
    const { pass, token } = await newPass({ ends_at: new Date(Date.now() + 2500).toISOString() });
    const first = await connect(token, '203.0.113.30', 'Guest phone/1.0');
    const second = await connect(token, '203.0.113.31', 'Guest laptop/2.0');
    // Read again each second until the end closes both: none of that is another use.
    await waitFor(async () => first.closedAt() !== undefined && second.closedAt() !== undefined, 6000);
    const actor = { type: 'pass', id: pass.id, label: 'Stream guest' };
    expect((await usesOf(pass.id, since)).map((e) => [e.actor, e.result, e.ip, e.client, e.detail])).toEqual([
      [actor, 'ok', '203.0.113.30', 'Guest phone/1.0', { action: 'connect' }],
      [actor, 'ok', '203.0.113.31', 'Guest laptop/2.0', { action: 'connect' }],
    ]);
  });

  it('records a refused CONNECT of a paused, ended or revoked pass with the reason; a wrong token names no pass', async () => {
    const since = new Date().toISOString();
    const paused = await newPass();
    await t.call(resident, 'PATCH', `/api/passes/${paused.pass.id}`, { paused: true });
    const ended = await newPass({ ends_at: new Date(Date.now() + 1000).toISOString() });
    const revoked = await newPass();
    await t.call(resident, 'DELETE', `/api/passes/${revoked.pass.id}`);
    await waitFor(async () =>
      (await t.call(resident, 'GET', '/api/passes')).body.passes.some(
        (p: { id: string; status: string }) => p.id === ended.pass.id && p.status === 'expired',
      ),
    );
    for (const { token } of [paused, ended, revoked]) {
      await expect(connect(token, '203.0.113.40')).rejects.toMatchObject({ code: 4 });
    }
    await expect(connect('C'.repeat(43), '203.0.113.40')).rejects.toMatchObject({ code: 4 });
    const refusal = (reason: string) => ['refused', '203.0.113.40', { action: 'connect', reason }];
    const uses = async (id: string) => (await usesOf(id, since)).map((e) => [e.result, e.ip, e.detail]);
    expect(await uses(paused.pass.id)).toEqual([refusal('This pass is paused')]);
    expect(await uses(ended.pass.id)).toEqual([refusal('This pass has ended')]);
    expect(await uses(revoked.pass.id)).toEqual([refusal('Pass not found')]);
    const all: ActivityEntry[] = (await t.call(admin, 'GET', `/api/activity?kind=pass.use&from=${since}`))
      .body.entries;
    const known = new Set([paused.pass.id, ended.pass.id, revoked.pass.id]);
    expect(all.filter((e) => e.ip === '203.0.113.40' && !known.has(e.actor.id ?? ''))).toEqual([]);
  });

  it(`counts CONNECTs into the address's ${PASS_LOOKUPS_PER_MINUTE} look-ups a minute, with the page's calls`, async () => {
    const { token } = await newPass();
    const from = '203.0.113.60';
    const lookUp = (url: string) =>
      t.app.inject({ method: 'GET', url, remoteAddress: '127.0.0.1', headers: { 'x-forwarded-for': from } });
    // Guesses over REST use all but one of the minute's look-ups; a CONNECT takes the last.
    for (let i = 0; i < PASS_LOOKUPS_PER_MINUTE - 2; i++) {
      expect((await lookUp(`/api/pass/${`guess${i}`.padEnd(43, 'x')}`)).statusCode).toBe(404);
    }
    await expect(connect('B'.repeat(43), from)).rejects.toMatchObject({ code: 4 });
    const last = await connect(token, from);
    expect(last.client.connected).toBe(true);
    // Past the limit: even the right token is refused, "server unavailable" (try later), and the
    // page's REST calls get 429; the open connection stays, another address is not affected.
    await expect(connect(token, from)).rejects.toMatchObject({ code: 3 });
    expect((await lookUp(`/api/pass/${token}`)).statusCode).toBe(429);
    expect(last.client.connected).toBe(true);
    expect((await connect(token, '203.0.113.61')).client.connected).toBe(true);
    expect(t.hearth.logs.text).toContain('guest pass look-ups rate-limited');
    expect(t.hearth.logs.text).not.toContain(token);
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

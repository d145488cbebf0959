import { afterEach, describe, expect, it } from 'vitest';
import { testDatabases } from '../../../test/databases.js';
import { closed, type EdgeHarness, eventually, P, startEdgeHarness } from './edge-test-kit.js';

describe.each(testDatabases())('edge broker: who may connect ($name)', ({ create }) => {
  let h: EdgeHarness;
  afterEach(() => h?.close());

  it('refuses a signed-out browser', async () => {
    h = await startEdgeHarness(await create());
    const { error } = await h.attempt({ origin: h.origin });
    expect(error?.message).toMatch(/Not authorized/);
    expect(h.edge.connections()).toBe(0);
  });

  it('refuses role "user" by cookie before the upgrade, and by MQTT password at CONNECT', async () => {
    h = await startEdgeHarness(await create());
    const { token } = await h.user('user');
    const upgrade = await h.rawSocket({ Origin: h.origin, Cookie: `auth_token=${token}` });
    expect(upgrade.status).toBe(403);
    const { error } = await h.attempt({ token, origin: h.origin });
    expect(error?.message).toMatch(/Not authorized/);
  });

  it('accepts a resident signed in by the auth_token cookie', async () => {
    h = await startEdgeHarness(await create());
    const { token } = await h.user('resident');
    const client = await h.connect({ cookie: token, origin: h.origin });
    expect(client.connected).toBe(true);
    await eventually(() => h.edge.connections() === 1);
  });

  it('accepts a resident (and an admin) with the access token as the MQTT password, without an Origin', async () => {
    h = await startEdgeHarness(await create());
    const resident = await h.user('resident');
    const admin = await h.user('admin');
    expect((await h.connect({ token: resident.token })).connected).toBe(true);
    expect((await h.connect({ token: admin.token })).connected).toBe(true);
  });

  it('refuses a wrong or forged token', async () => {
    h = await startEdgeHarness(await create());
    const { error } = await h.attempt({ token: 'not-a-token' });
    expect(error?.message).toMatch(/Bad username or password/);
  });

  it('refuses a page from another origin before upgrading, even with a valid cookie', async () => {
    h = await startEdgeHarness(await create());
    const { token } = await h.user('resident');
    const foreign = await h.rawSocket({ Origin: 'https://evil.example', Cookie: `auth_token=${token}` });
    expect(foreign.status).toBe(403);
    const publicOrigin = await h.rawSocket({
      Origin: 'http://localhost:8080',
      Cookie: `auth_token=${token}`,
    });
    expect(publicOrigin.socket).toBeDefined();
  });

  it('refuses MQTT protocol levels other than 4 (3.1.1)', async () => {
    h = await startEdgeHarness(await create());
    const { token } = await h.user('resident');
    for (const protocolVersion of [3, 5] as const) {
      const { error } = await h.attempt({ token, protocolVersion });
      expect(error).toBeDefined();
    }
  });

  it('refuses a will message', async () => {
    h = await startEdgeHarness(await create());
    const { token } = await h.user('resident');
    const { error } = await h.attempt({
      token,
      will: { topic: `${P}/events/device.upsert`, payload: Buffer.from('{}'), qos: 0, retain: false },
    });
    expect(error?.message).toMatch(/Not authorized/);
  });

  it("does not let another user's client id take over a connection", async () => {
    h = await startEdgeHarness(await create());
    const alice = await h.user('resident');
    const bob = await h.user('resident');
    const first = await h.connect({ token: alice.token, clientId: 'rt-1-1' });
    let firstClosed = false;
    first.on('close', () => {
      firstClosed = true;
    });
    await first.subscribeAsync(`${P}/devices/#`);
    const second = await h.connect({ token: bob.token, clientId: 'rt-1-1' });
    await second.subscribeAsync(`${P}/devices/#`);
    const received: string[] = [];
    first.on('message', (topic) => received.push(topic));
    await h.edge.publish('devices/lamp', '{"on":true}');
    await eventually(() => received.length === 1);
    expect(firstClosed).toBe(false);
    expect(h.edge.connections()).toBe(2);
  });

  it('closes a socket that never sends CONNECT (10 s by default; shortened here)', async () => {
    h = await startEdgeHarness(await create(), { connectTimeoutMs: 400 });
    const started = Date.now();
    const { socket } = await h.rawSocket({ Origin: h.origin });
    await new Promise((resolve) => socket?.once('close', resolve));
    expect(Date.now() - started).toBeGreaterThanOrEqual(350);
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it.each([
    ['demoted to user', { role: 'user' as const }],
    ['locked by an administrator', { lockout_enabled: 1, lockout_reason: 'admin_lock' }],
  ])('closes the connection of a user %s', async (_name, change) => {
    h = await startEdgeHarness(await create(), { recheckIntervalMs: 200 });
    const { record, token } = await h.user('resident');
    const client = await h.connect({ token });
    await h.app.storage.db.updateTable('users').set(change).where('id', '=', record.id).execute();
    await closed(client, 3000);
    await eventually(() => h.edge.connections() === 0);
  });

  it('closes the connection of a deleted user', async () => {
    h = await startEdgeHarness(await create(), { recheckIntervalMs: 200 });
    const { record, token } = await h.user('admin');
    const client = await h.connect({ token });
    await h.app.storage.db.deleteFrom('users').where('id', '=', record.id).execute();
    await closed(client, 3000);
  });
});

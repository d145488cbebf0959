import type { ActivityEntry, ApiToken, CreatedApiToken, Device } from '@hearth/contracts';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../test/app.js';
import { testDatabases } from '../../test/databases.js';
import { waitFor } from '../../test/wait.js';
import type { UserRecord } from '../users/index.js';
import { TOKENS_ERRORS as E } from './tokens.errors.js';
import { hashApiToken } from './tokens.secret.js';

const DAY = 86_400_000;

/** docs/api.md#api-tokens on both databases, with the simulator's first six devices in the hub. */
describe.each(testDatabases())('API tokens on $name', ({ create }) => {
  const t = useTestApp({ database: create, env: { SIMULATOR: 'on', SIMULATOR_DEVICES: '6' } });
  let resident: UserRecord;
  let admin: UserRecord;
  let devices: Device[];
  let lamp: Device;
  let roomId: string;

  beforeAll(async () => {
    resident = await t.user('resident');
    admin = await t.user('admin');
    devices = await waitFor(async () => {
      const list: Device[] = (await t.call(resident, 'GET', '/api/devicehub/devices')).body;
      return list.length === 6 && list;
    });
    lamp = devices.find((device) => device.name === 'Hallway lamp')!;
    roomId = (await t.call(admin, 'POST', '/api/rooms', { name: 'Hall' })).body.id;
    await t.call(admin, 'PUT', `/api/rooms/${roomId}/devices`, { device_ids: [lamp.id] });
  });

  const newToken = async (
    owner: UserRecord,
    body: Record<string, unknown> = {},
  ): Promise<CreatedApiToken> => {
    const answer = await t.call(owner, 'POST', '/api/auth/tokens', {
      name: 'Script',
      expires_in: 'never',
      scope: 'control',
      ...body,
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    return answer.body;
  };
  /** A call with `token` as Bearer. */
  const withToken = async (
    token: string,
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    url: string,
    payload?: unknown,
    // biome-ignore lint/suspicious/noExplicitAny: a test reads answers of every shape
  ): Promise<{ status: number; body: any; headers: Record<string, unknown> }> => {
    const response = await t.app.inject({
      method,
      url,
      headers: { authorization: `Bearer ${token}` },
      ...(payload !== undefined ? { payload: payload as object } : {}),
    });
    return {
      status: response.statusCode,
      body: response.body ? response.json() : undefined,
      headers: response.headers,
    };
  };
  const switchOn = (token: string, device = lamp) =>
    withToken(token, 'POST', `/api/devicehub/devices/${device.id}/commands`, { state: { on: true } });
  const entries = async (viewer: UserRecord, query: string): Promise<ActivityEntry[]> =>
    (await t.call(viewer, 'GET', `/api/activity?${query}`)).body.entries;

  it('shows the token once, as hearth_ and 40 characters, and stores only its hash', async () => {
    const created = await newToken(resident, { name: '  Heating cron  ', expires_in: '30d', scope: 'read' });
    expect(created.token).toMatch(/^hearth_[A-Za-z0-9]{40}$/);
    expect(created).toMatchObject({
      name: 'Heating cron',
      scope: 'read',
      rooms: [],
      devices: [],
      last_used_at: null,
      owner: { id: resident.id },
    });
    expect(Date.parse(created.expires_at!) - Date.parse(created.created_at)).toBe(30 * DAY);
    const row = await t.hearth.storage.db
      .selectFrom('api_tokens')
      .selectAll()
      .where('id', '=', created.id)
      .executeTakeFirstOrThrow();
    expect(row.secret_hash).toBe(hashApiToken(created.token));
    expect(JSON.stringify(row)).not.toContain(created.token.slice('hearth_'.length));
    const listed: ApiToken[] = (await t.call(resident, 'GET', '/api/auth/tokens')).body.tokens;
    const mine = listed.find((token) => token.id === created.id);
    expect(mine).toBeDefined();
    expect(mine).not.toHaveProperty('token');
    expect(JSON.stringify(listed)).not.toContain(created.token);
  });

  it('lists an owner their own tokens and an admin everyone’s', async () => {
    const other = await t.user('user');
    const theirs = await newToken(other, { scope: 'read' });
    const mine = await newToken(resident);
    const asResident: ApiToken[] = (await t.call(resident, 'GET', '/api/auth/tokens')).body.tokens;
    expect(asResident.map((token) => token.id)).toContain(mine.id);
    expect(asResident.map((token) => token.id)).not.toContain(theirs.id);
    const asAdmin: ApiToken[] = (await t.call(admin, 'GET', '/api/auth/tokens')).body.tokens;
    expect(asAdmin.map((token) => token.id)).toEqual(expect.arrayContaining([mine.id, theirs.id]));
    expect(asAdmin.find((token) => token.id === theirs.id)?.owner.id).toBe(other.id);
    // Someone else's token is not theirs to revoke; an admin may.
    expect(await t.call(resident, 'DELETE', `/api/auth/tokens/${theirs.id}`)).toMatchObject({
      status: 404,
      body: { error: E.notFound },
    });
    expect((await t.call(admin, 'DELETE', `/api/auth/tokens/${theirs.id}`)).status).toBe(204);
    expect((await withToken(theirs.token, 'GET', '/api/devicehub/devices')).status).toBe(401);
  });

  it('refuses bad token bodies with the field named', async () => {
    const post = (body: unknown) => t.call(resident, 'POST', '/api/auth/tokens', body);
    const base = { name: 'x', expires_in: 'never', scope: 'read' };
    expect((await post({ ...base, name: '  ' })).body.error).toBe(E.name);
    expect((await post({ ...base, name: 'n'.repeat(65) })).body.error).toBe(E.nameTooLong);
    expect((await post({ ...base, scope: 'admin' })).body.error).toBe(E.scope);
    expect((await post({ ...base, expires_in: '2y' })).body.error).toBe(E.expiry);
    expect((await post({ ...base, rooms: 'hall' })).body.error).toBe(E.ids('rooms'));
    expect((await post({ ...base, rooms: ['nope'] })).body).toEqual({ error: E.unknownRoom('nope') });
    expect((await post({ ...base, devices: ['nope'] })).body).toEqual({ error: E.unknownDevice('nope') });
  });

  it('works as Bearer on the REST API: a control token switches a lamp, a read token may only read', async () => {
    const control = await newToken(resident);
    const read = await newToken(resident, { scope: 'read' });
    expect(await switchOn(control.token)).toMatchObject({ status: 200, body: { success: true } });
    const listed = await withToken(read.token, 'GET', '/api/devicehub/devices');
    expect(listed.status).toBe(200);
    expect((listed.body as Device[]).map((device) => device.access)).toEqual(devices.map(() => 'view'));
    expect(await switchOn(read.token)).toMatchObject({
      status: 403,
      body: { success: false, error: E.readOnly },
    });
    // Calls outside the scopes: managing rooms, passes, access rules, or renaming.
    expect(await withToken(control.token, 'POST', '/api/rooms', { name: 'Den' })).toMatchObject({
      status: 403,
      body: { error: E.notOpen },
    });
    expect((await withToken(control.token, 'GET', `/api/access/${resident.id}`)).body).toEqual({
      error: E.notOpen,
    });
    expect(
      (await withToken(control.token, 'PATCH', `/api/devicehub/devices/${lamp.id}`, { name: 'x' })).status,
    ).toBe(403);
  });

  it('narrows a token to its rooms and devices, never beyond its owner', async () => {
    const other = devices.find((device) => device.id !== lamp.id)!;
    const hall = await newToken(resident, { rooms: [roomId] });
    const listed: Device[] = (await withToken(hall.token, 'GET', '/api/devicehub/devices')).body;
    expect(listed.map((device) => device.id)).toEqual([lamp.id]);
    expect((await switchOn(hall.token, other)).status).toBe(404);
    expect((await switchOn(hall.token)).status).toBe(200);
    // A `user` who may only view the lamp: a control token gets view, and cannot name more.
    const viewer = await t.user('user');
    await t.call(admin, 'PUT', `/api/access/${viewer.id}`, { devices: { [lamp.id]: 'view' } });
    expect(
      (
        await t.call(viewer, 'POST', '/api/auth/tokens', {
          name: 'x',
          expires_in: 'never',
          scope: 'control',
          devices: [lamp.id],
        })
      ).body,
    ).toEqual({
      error: E.beyondOwner(lamp.id),
    });
    expect(
      (
        await t.call(viewer, 'POST', '/api/auth/tokens', {
          name: 'x',
          expires_in: 'never',
          scope: 'read',
          devices: [other.id],
        })
      ).body,
    ).toEqual({
      error: E.unknownDevice(other.id),
    });
    const theirs = await newToken(viewer);
    const seen: Device[] = (await withToken(theirs.token, 'GET', '/api/devicehub/devices')).body;
    expect(seen.map((device) => [device.id, device.access])).toEqual([[lamp.id, 'view']]);
    expect((await switchOn(theirs.token)).status).toBe(403);
    // The owner loses the lamp: so does the token, at its next call.
    await t.call(admin, 'PUT', `/api/access/${viewer.id}`, { devices: {} });
    expect((await withToken(theirs.token, 'GET', '/api/devicehub/devices')).body).toEqual([]);
  });

  it('answers 401 once a token has expired', async () => {
    const created = await newToken(resident, { expires_in: '30d' });
    expect((await withToken(created.token, 'GET', '/api/devicehub/status')).status).toBe(200);
    await t.hearth.storage.db
      .updateTable('api_tokens')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('id', '=', created.id)
      .execute();
    expect(await withToken(created.token, 'GET', '/api/devicehub/status')).toMatchObject({
      status: 401,
      body: { error: E.invalid },
    });
  });

  it('answers 401 to malformed, unknown and revoked tokens alike', async () => {
    const revoked = await newToken(resident);
    expect((await t.call(resident, 'DELETE', `/api/auth/tokens/${revoked.id}`)).status).toBe(204);
    const unknown = `hearth_${'A'.repeat(40)}`;
    for (const token of ['hearth_short', `${unknown}x`, unknown, revoked.token]) {
      expect(await withToken(token, 'GET', '/api/devicehub/devices'), token).toMatchObject({
        status: 401,
        body: { error: E.invalid },
      });
    }
    expect((await t.call(resident, 'DELETE', `/api/auth/tokens/${revoked.id}`)).status).toBe(404);
  });

  it('refuses every call of the accounts API with one 403, tokens included', async () => {
    const created = await newToken(admin);
    for (const [method, url, body] of [
      ['GET', '/api/auth/me'],
      ['GET', '/api/auth/tokens'],
      ['POST', '/api/auth/tokens', { name: 'more', expires_in: 'never', scope: 'control' }],
      ['POST', '/api/auth/password/change', { current_password: 'x', new_password: 'y' }],
      ['POST', '/api/auth/2fa/email/setup', {}],
      ['GET', '/api/auth/sessions'],
      ['POST', '/api/auth/sessions/revoke-others', {}],
      ['POST', '/api/auth/login/start', { email: admin.email, password: 'x' }],
      ['GET', '/api/auth/users'],
    ] as const) {
      expect(await withToken(created.token, method, url, body), url).toMatchObject({
        status: 403,
        body: { error: E.accountsApi },
      });
    }
    expect(await withToken(`hearth_${'B'.repeat(40)}`, 'GET', '/api/auth/me')).toMatchObject({
      status: 403,
      body: { error: E.accountsApi },
    });
    // Still live: nothing above revoked it or made another.
    expect((await withToken(created.token, 'GET', '/api/devicehub/status')).status).toBe(200);
  });

  it('refuses a token in the address, and never logs it', async () => {
    const created = await newToken(resident);
    const secret = created.token.slice('hearth_'.length);
    for (const url of [
      `/api/devicehub/devices?access_token=${created.token}`,
      `/api/devicehub/devices?key=${created.token}`,
      `/api/history?token=${created.token}&device_id=x`,
    ]) {
      const response = await t.app.inject({ method: 'GET', url });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ error: E.inAddress });
    }
    expect(t.hearth.logs.text).toContain('hearth_[Redacted]');
    expect(t.hearth.logs.text).not.toContain(secret);
  });

  it('leaves an entry for every call, with the api actor and its owner', async () => {
    const created = await newToken(resident, { name: 'Stream Deck' });
    await switchOn(created.token);
    await withToken(created.token, 'GET', '/api/devicehub/devices');
    await withToken(created.token, 'POST', '/api/rooms', { name: 'Den' });
    const actor = {
      type: 'api',
      id: created.id,
      label: 'Stream Deck',
      owner: { id: resident.id, label: `${resident.firstName} ${resident.lastName}` },
    };
    const mine = await waitFor(async () => {
      const found = await entries(admin, `actor=${created.id}`);
      return found.length === 3 && found;
    });
    expect(mine.map((entry) => [entry.kind, entry.result, entry.actor])).toEqual([
      ['api.call', 'refused', actor],
      ['api.call', 'ok', actor],
      ['device.command', 'ok', actor],
    ]);
    expect(mine[0]!.detail).toMatchObject({
      method: 'POST',
      route: '/api/rooms',
      status: 403,
      reason: E.notOpen,
    });
    expect(mine[1]!.detail).toMatchObject({ method: 'GET', route: '/api/devicehub/devices', status: 200 });
    // The owner's own entries include their tokens' (a `user` reads only their own).
    const owner = await entries(resident, `actor=${resident.id}&kind=api.call`);
    expect(owner.map((entry) => entry.actor.id)).toContain(created.id);
    const created_ = await entries(admin, `actor=${resident.id}&kind=token.create`);
    expect(created_[0]?.detail).toMatchObject({ name: 'Stream Deck', token_id: created.id });
  });

  it("revokes an owner's tokens at their lock, password reset and sign-out everywhere", async () => {
    // Lock.
    const locked = await t.user('user');
    await t.call(admin, 'PUT', `/api/access/${locked.id}`, { devices: { [lamp.id]: 'control' } });
    const lockedToken = await newToken(locked);
    expect((await switchOn(lockedToken.token)).status).toBe(200);
    expect((await t.call(admin, 'POST', `/api/auth/users/${locked.id}/lockout`, { lock: true })).status).toBe(
      200,
    );
    expect((await switchOn(lockedToken.token)).status).toBe(401);
    await t.call(admin, 'POST', `/api/auth/users/${locked.id}/lockout`, { lock: false });
    expect((await switchOn(lockedToken.token)).status).toBe(401);
    // Sign out everywhere.
    const signedOut = await newToken(resident);
    expect((await t.call(resident, 'POST', '/api/auth/sessions/revoke-others', {})).status).toBe(200);
    expect((await switchOn(signedOut.token)).status).toBe(401);
    // A password change keeps them.
    const kept = await newToken(resident);
    const revokedAt = await t.hearth.storage.db
      .selectFrom('api_tokens')
      .select('revoked_at')
      .where('owner_id', '=', resident.id)
      .where('id', '!=', kept.id)
      .execute();
    expect(revokedAt.every((row) => row.revoked_at !== null)).toBe(true);
    expect((await switchOn(kept.token)).status).toBe(200);
  });
});

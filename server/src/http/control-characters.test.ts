import type { ActivityEntry } from '@hearth/contracts';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../test/app.js';
import { testDatabases } from '../../test/databases.js';
import type { UserRecord } from '../users/index.js';

// docs/api.md#text: a control character in a path parameter, a query or a body is refused with
// 400 before any route runs; it never reaches the database (PostgreSQL refuses U+0000 in text,
// which once stopped the activity log for good).
describe.each(testDatabases())('control characters in requests on $name', ({ create }) => {
  const t = useTestApp({ database: create, env: { AUTH_RATE_LIMIT: '0' } });
  let admin: UserRecord;
  let user: UserRecord;

  beforeAll(async () => {
    admin = await t.user('admin');
    user = await t.user('user');
  });

  /** The activity log still writes: a later sign-in attempt appears in it. */
  async function activityStillWrites() {
    const email = `later-${crypto.randomUUID().slice(0, 8)}@example.com`;
    expect((await t.api.post('/login/start', { email, password: 'wrong password' })).statusCode).toBe(401);
    await t.hearth.activity.flush();
    const answer = await t.call(admin, 'GET', '/api/activity?kind=sign_in&limit=100');
    expect(answer.status).toBe(200);
    expect((answer.body.entries as ActivityEntry[]).map((entry) => entry.actor.label)).toContain(email);
    expect(t.hearth.logs.text).not.toContain('writing the activity log failed');
  }

  it('refuses a NUL in the sign-in e-mail (400), and the activity log keeps writing', async () => {
    const answer = await t.api.post('/login/start', { email: 'victim\u0000@example.com', password: 'x' });
    expect([answer.statusCode, answer.json()]).toEqual([
      400,
      { error: 'email must not contain control characters' },
    ]);
    await activityStillWrites();
  });

  it("refuses a NUL device id in a signed-in user's command (400, in the device calls' wrapper), and the activity log keeps writing", async () => {
    const answer = await t.call(user, 'POST', '/api/devicehub/devices/%00/commands', { state: { on: true } });
    expect(answer).toEqual({
      status: 400,
      body: { success: false, data: null, error: 'id must not contain control characters' },
    });
    await activityStillWrites();
  });

  it('refuses control characters in queries and their names, in object keys at any depth, and in path parameters', async () => {
    const refused = [
      await t.call(admin, 'GET', '/api/activity?kind=room.create%00'),
      await t.call(admin, 'GET', '/api/activity?device_id=a%0Ab'),
      await t.call(admin, 'GET', '/api/activity?x%01=1'),
      await t.call(admin, 'POST', '/api/rooms', { name: 'Office\u0007' }),
      await t.call(admin, 'POST', '/api/rooms', { name: 'Office', 'icon\u0000': 'sofa' }),
      await t.call(admin, 'PUT', `/api/access/${user.id}`, { rooms: { 'Office\u001b': 'none' } }),
      await t.call(admin, 'PATCH', '/api/rooms/a%09b', { name: 'Office' }),
      await t.call(admin, 'DELETE', '/api/floors/%7F'),
    ];
    expect(refused.map((answer) => [answer.status, answer.body.error])).toEqual([
      [400, 'kind must not contain control characters'],
      [400, 'device_id must not contain control characters'],
      [400, 'query must not contain control characters'],
      [400, 'name must not contain control characters'],
      [400, 'body must not contain control characters'],
      [400, 'rooms must not contain control characters'],
      [400, 'id must not contain control characters'],
      [400, 'id must not contain control characters'],
    ]);
    await activityStillWrites();
  });

  it('lets tab, line feed and carriage return through in body text, where the route decides', async () => {
    const answer = await t.api.post('/login/start', {
      email: 'nobody@example.com',
      password: 'tab\there\r\n',
    });
    expect(answer.statusCode).toBe(401);
  });
});

import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../test/app.js';
import { testDatabases } from '../../test/databases.js';
import { MANAGING_ANOTHER } from '../../test/users.js';
import type { Role, UserRecord } from './users.repository.js';

describe.each(testDatabases())('user administration on $name', ({ create }) => {
  const t = useTestApp({ database: create });
  const makeUser = (
    role: Role,
    fields: Partial<{ firstName: string; lastName: string; email: string }> = {},
  ) => t.user(role, fields);
  const tokenOf = (user: UserRecord) => t.tokenFor(user);
  const call = t.call;

  describe('listing', () => {
    it('needs a signed-in resident or admin', async () => {
      expect((await call(undefined, 'GET', '/api/auth/users')).status).toBe(401);
      expect((await call(await makeUser('user'), 'GET', '/api/auth/users')).status).toBe(403);
      expect((await call(await makeUser('resident'), 'GET', '/api/auth/users')).status).toBe(200);
      expect((await call(await makeUser('admin'), 'GET', '/api/auth/users')).status).toBe(200);
    });

    it('pages through matches with the requested page size', async () => {
      const admin = await makeUser('admin');
      for (let i = 0; i < 25; i++) await makeUser('user', { lastName: 'Pagewright' });
      const first = await call(admin, 'GET', '/api/auth/users?q=pagewright&page_size=10');
      expect(first.status).toBe(200);
      expect(first.body).toMatchObject({ page: 1, page_size: 10, total: 25, total_pages: 3 });
      expect(first.body.users).toHaveLength(10);
      const third = await call(admin, 'GET', '/api/auth/users?q=pagewright&page_size=10&page=3');
      expect(third.body.users).toHaveLength(5);
      const ids = new Set([...first.body.users, ...third.body.users].map((user: { id: string }) => user.id));
      expect(ids.size).toBe(15);
      const defaults = await call(admin, 'GET', '/api/auth/users?q=pagewright');
      expect(defaults.body).toMatchObject({ page: 1, page_size: 20, total_pages: 2 });
      expect(defaults.body.users).toHaveLength(20);
      const beyond = await call(admin, 'GET', '/api/auth/users?q=pagewright&page=9');
      expect(beyond.body.users).toEqual([]);
    });

    it.each(['15', '0', 'abc', '1000', '-10'])('refuses page_size=%s with 400', async (size) => {
      const result = await call(await makeUser('admin'), 'GET', `/api/auth/users?page_size=${size}`);
      expect(result.status).toBe(400);
      expect(result.body.error).toMatch(/page_size/);
    });

    it('refuses a page that is not a positive integer', async () => {
      const result = await call(await makeUser('admin'), 'GET', '/api/auth/users?page=0');
      expect(result).toEqual({ status: 400, body: { error: 'page must be a positive integer' } });
    });

    it('matches first name, last name, user name and e-mail case-insensitively', async () => {
      const admin = await makeUser('admin');
      const grace = await makeUser('user', {
        firstName: 'Gracelyn',
        lastName: 'Hopperton',
        email: 'gh@navy.example',
      });
      const names = async (q: string) =>
        (await call(admin, 'GET', `/api/auth/users?q=${encodeURIComponent(q)}&page_size=100`)).body.users.map(
          (user: { id: string }) => user.id,
        );
      expect(await names('GRACELYN')).toEqual([grace.id]);
      expect(await names('hopPERton')).toEqual([grace.id]);
      expect(await names('NAVY.EXAMPLE')).toEqual([grace.id]);
      expect(await names(grace.userName.toUpperCase())).toEqual([grace.id]);
      expect(await names('  gracelyn  ')).toEqual([grace.id]);
    });

    it('treats % and _ in the search text literally', async () => {
      const admin = await makeUser('admin');
      const percent = await makeUser('user', { lastName: 'Fifty%Off' });
      await makeUser('user', { lastName: 'FiftyXOff' });
      const found = await call(admin, 'GET', `/api/auth/users?q=${encodeURIComponent('fifty%off')}`);
      expect(found.body.users.map((user: { id: string }) => user.id)).toEqual([percent.id]);
      const underscore = await call(admin, 'GET', `/api/auth/users?q=${encodeURIComponent('fifty_off')}`);
      expect(underscore.body.total).toBe(0);
    });

    it('returns users in the public shape, never a password hash', async () => {
      const admin = await makeUser('admin');
      const result = await call(admin, 'GET', '/api/auth/users?page_size=100');
      const sample = result.body.users[0];
      expect(Object.keys(sample).sort()).toEqual(
        [
          'email',
          'email_confirmed',
          'first_name',
          'id',
          'last_name',
          'lockout_enabled',
          'name',
          'profile_picture_url',
          'role',
          'two_factor_enabled',
          'user_name',
        ].sort(),
      );
      expect(JSON.stringify(result.body)).not.toMatch(/password|hash/i);
    });
  });

  describe('role changes (docs/roles.md)', () => {
    // What each caller may do with each target: the status for requesting user / resident / admin.
    const matrix: Record<string, Record<Role, number>> = {
      'user>self': { user: 200, resident: 403, admin: 403 },
      'user>user': { user: 403, resident: 403, admin: 403 },
      'user>resident': { user: 403, resident: 403, admin: 403 },
      'user>admin': { user: 403, resident: 403, admin: 403 },
      'resident>self': { user: 403, resident: 200, admin: 403 },
      'resident>user': { user: 200, resident: 200, admin: 403 },
      'resident>resident': { user: 403, resident: 200, admin: 403 },
      'resident>admin': { user: 403, resident: 403, admin: 403 },
      'admin>self': { user: 200, resident: 200, admin: 200 },
      'admin>user': { user: 200, resident: 200, admin: 200 },
      'admin>resident': { user: 200, resident: 200, admin: 200 },
      'admin>admin': { user: 200, resident: 200, admin: 200 },
    };
    const cases = Object.entries(matrix).flatMap(([key, byRole]) =>
      (Object.entries(byRole) as [Role, number][]).map(([role, status]) => {
        const [caller, target] = key.split('>') as [Role, 'self' | Role];
        return { caller, target, role, status };
      }),
    );

    it.each(cases)('$caller setting $target to $role → $status', async ({ caller, target, role, status }) => {
      await makeUser('admin'); // another admin, so the last-admin rule stays out of the way
      const me = await makeUser(caller);
      const subject = target === 'self' ? me : await makeUser(target);
      const result = await call(me, 'PATCH', `/api/auth/users/${subject.id}`, { role });
      expect(result.status).toBe(status);
      const stored = await t.hearth.users.findById(subject.id);
      expect(stored?.role).toBe(status === 200 ? role : subject.role);
      if (status === 200) expect(result.body).toMatchObject({ id: subject.id, role });
      else expect(result.body.error).toEqual(expect.any(String));
    });

    it('keeps the last admin an admin', async () => {
      const admin = await makeUser('admin');
      // Make this the only admin left (the tests share one database).
      await t.hearth.storage.db
        .updateTable('users')
        .set({ role: 'resident' })
        .where('role', '=', 'admin')
        .where('id', '!=', admin.id)
        .execute();
      const result = await call(admin, 'PATCH', `/api/auth/users/${admin.id}`, { role: 'resident' });
      expect(result).toEqual({ status: 403, body: { error: 'The last admin must stay an admin' } });
      expect((await t.hearth.users.findById(admin.id))?.role).toBe('admin');

      const second = await makeUser('admin');
      expect((await call(admin, 'PATCH', `/api/auth/users/${admin.id}`, { role: 'resident' })).status).toBe(
        200,
      );
      const last = await call(second, 'PATCH', `/api/auth/users/${second.id}`, { role: 'user' });
      expect(last.status).toBe(403);
    });

    it('lets only one of two admins demoting each other at the same moment succeed', async () => {
      const a = await makeUser('admin');
      const b = await makeUser('admin');
      await t.hearth.storage.db
        .updateTable('users')
        .set({ role: 'resident' })
        .where('role', '=', 'admin')
        .where('id', 'not in', [a.id, b.id])
        .execute();
      const results = await Promise.all([
        call(a, 'PATCH', `/api/auth/users/${b.id}`, { role: 'user' }),
        call(b, 'PATCH', `/api/auth/users/${a.id}`, { role: 'user' }),
      ]);
      // The loser is refused: 403 by the last-admin rule, or 401 when the winner's demotion ended
      // its sessions first (a role change ends every session of the user, issue 11 item 4).
      const statuses = results.map((r) => r.status).sort();
      expect(statuses[0]).toBe(200);
      expect([401, 403]).toContain(statuses[1]);
      const admins = await t.hearth.storage.db
        .selectFrom('users')
        .select('id')
        .where('role', '=', 'admin')
        .execute();
      expect(admins).toHaveLength(1);
    });

    it('answers 400 for an unknown role and 404 for an unknown user', async () => {
      const admin = await makeUser('admin');
      const target = await makeUser('user');
      expect(await call(admin, 'PATCH', `/api/auth/users/${target.id}`, { role: 'superuser' })).toEqual({
        status: 400,
        body: { error: 'Unknown role' },
      });
      expect(
        (await call(admin, 'PATCH', `/api/auth/users/${crypto.randomUUID()}`, { role: 'user' })).status,
      ).toBe(404);
      expect((await call(undefined, 'PATCH', `/api/auth/users/${target.id}`, { role: 'user' })).status).toBe(
        401,
      );
    });
  });

  describe('profile fields', () => {
    it('lets a user change their own trimmed names and ignores fields nobody may set', async () => {
      const me = await makeUser('user');
      const result = await call(me, 'PATCH', `/api/auth/users/${me.id}`, {
        first_name: '  Ada ',
        last_name: ' Lovelace',
        email_confirmed: true,
        lockout_enabled: true,
        two_factor_enabled: true,
        password_hash: 'x',
        email: 'evil@example.com',
        id: crypto.randomUUID(),
      });
      expect(result.status).toBe(200);
      expect(result.body).toMatchObject({
        id: me.id,
        first_name: 'Ada',
        last_name: 'Lovelace',
        name: 'Ada Lovelace',
        email: me.email,
        email_confirmed: false,
        lockout_enabled: false,
        two_factor_enabled: false,
      });
      const stored = await t.hearth.users.findById(me.id);
      expect(stored).toMatchObject({ passwordHash: null, email: me.email, emailConfirmed: false });
    });

    it.each([{ first_name: '   ' }, { last_name: '' }, { first_name: 42 }, { last_name: 'x'.repeat(65) }])(
      'refuses %j with 400',
      async (payload) => {
        const me = await makeUser('user');
        const result = await call(me, 'PATCH', `/api/auth/users/${me.id}`, payload);
        expect(result.status).toBe(400);
        expect(result.body.error).toMatch(/First name and last name/);
      },
    );

    it('does not let a user rename someone else, nor a resident rename an admin', async () => {
      const user = await makeUser('user');
      const resident = await makeUser('resident');
      const admin = await makeUser('admin');
      expect((await call(user, 'PATCH', `/api/auth/users/${resident.id}`, { first_name: 'X' })).status).toBe(
        403,
      );
      expect((await call(resident, 'PATCH', `/api/auth/users/${admin.id}`, { first_name: 'X' })).status).toBe(
        403,
      );
      expect((await call(resident, 'PATCH', `/api/auth/users/${user.id}`, { first_name: 'Y' })).status).toBe(
        200,
      );
      expect((await t.hearth.users.findById(admin.id))?.firstName).toBe(admin.firstName);
    });
  });

  describe('lockout', () => {
    it('locks a resident out at once and lets them back in after unlock', async () => {
      const admin = await makeUser('admin');
      const resident = await makeUser('resident');
      expect((await call(resident, 'GET', '/api/auth/users')).status).toBe(200);

      const locked = await call(admin, 'POST', `/api/auth/users/${resident.id}/lockout`, { lock: true });
      expect(locked.status).toBe(200);
      expect(locked.body).toMatchObject({ id: resident.id, lockout_enabled: true });
      expect(await t.hearth.users.findById(resident.id)).toMatchObject({
        lockoutEnabled: true,
        lockoutReason: 'admin_lock',
      });
      expect((await call(resident, 'GET', '/api/auth/users')).status).toBe(401);
      expect((await call(resident, 'GET', '/api/auth/me')).status).toBe(401);

      const unlocked = await call(admin, 'POST', `/api/auth/users/${resident.id}/lockout`, { locked: false });
      expect(unlocked.status).toBe(200);
      expect(unlocked.body.lockout_enabled).toBe(false);
      expect(await t.hearth.users.findById(resident.id)).toMatchObject({
        lockoutEnabled: false,
        lockoutReason: null,
        lockoutUntil: null,
      });
      expect((await call(resident, 'GET', '/api/auth/users')).status).toBe(200);
    });

    it('revokes the locked user’s refresh tokens, and they stay revoked after unlock', async () => {
      const admin = await makeUser('admin');
      const target = await makeUser('user');
      const { refresh_token } = await t.hearth.sessions.issue(target);
      const spare = await t.hearth.sessions.issue(target);
      const refresh = (token: string) =>
        t.app.inject({ method: 'POST', url: '/api/auth/refresh', payload: { refresh_token: token } });
      const rotated = await refresh(refresh_token);
      expect(rotated.statusCode).toBe(200);

      await call(admin, 'POST', `/api/auth/users/${target.id}/lockout`, { lock: true });
      expect((await refresh(rotated.json().refresh_token)).statusCode).toBe(401);
      await call(admin, 'POST', `/api/auth/users/${target.id}/lockout`, { lock: false });
      expect((await refresh(spare.refresh_token)).statusCode).toBe(401);
      const me = await t.app.inject({
        method: 'GET',
        url: '/api/auth/me',
        headers: { authorization: `Bearer ${await tokenOf(target)}` },
      });
      expect(me.statusCode).toBe(200);
    });

    it.each(MANAGING_ANOTHER)('%s locking a %s → %i', async (callerRole, targetRole, status) => {
      const me = await makeUser(callerRole);
      const target = await makeUser(targetRole);
      const result = await call(me, 'POST', `/api/auth/users/${target.id}/lockout`, { lock: true });
      expect(result.status).toBe(status);
      expect((await t.hearth.users.findById(target.id))?.lockoutEnabled).toBe(status === 200);
    });

    it('lets nobody lock themselves', async () => {
      for (const role of ['resident', 'admin'] as const) {
        const me = await makeUser(role);
        const result = await call(me, 'POST', `/api/auth/users/${me.id}/lockout`, { lock: true });
        expect(result).toEqual({ status: 403, body: { error: 'You cannot lock your own account' } });
      }
    });

    it('answers 400 without a boolean, 404 for an unknown user, 401 signed out', async () => {
      const admin = await makeUser('admin');
      const target = await makeUser('user');
      expect(await call(admin, 'POST', `/api/auth/users/${target.id}/lockout`, { lock: 'yes' })).toEqual({
        status: 400,
        body: { error: 'lock must be true or false' },
      });
      expect(
        (await call(admin, 'POST', `/api/auth/users/${crypto.randomUUID()}/lockout`, { lock: true })).status,
      ).toBe(404);
      expect(
        (await call(undefined, 'POST', `/api/auth/users/${target.id}/lockout`, { lock: true })).status,
      ).toBe(401);
    });
  });
});

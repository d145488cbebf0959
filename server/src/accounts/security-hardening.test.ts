import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { person } from '../../test/accounts-client.js';
import { startTestApp, type TestApp, useTestApp } from '../../test/app.js';
import { testDatabases } from '../../test/databases.js';
import { MESSAGES } from './accounts.errors.js';
import { LIVE_SESSION_TTL_MS } from './live-sessions.js';
import { PasswordHasher } from './password-hasher.js';

/** Issue 11 (security hardening), items 2–4, 6, 7, 12 and 13: each test fails on the code before it. */
describe.each(testDatabases())('security hardening on $name', ({ create }) => {
  const t = useTestApp({
    database: create,
    mail: true,
    env: { AUTH_RATE_LIMIT: '0', SIGNUP_RATE_LIMIT: '0' },
  });
  const { api, mail } = t;
  const countOf = (statuses: number[], status: number) => statuses.filter((s) => s === status).length;
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
  const patchSelf = (id: string, token: string) =>
    t.app.inject({
      method: 'PATCH',
      url: `/api/auth/users/${id}`,
      headers: bearer(token),
      payload: { first_name: 'Mallory' },
    });

  afterEach(() => vi.restoreAllMocks());

  describe('item 2: the lockout holds against parallel guesses', () => {
    /**
     * 50 attempts at once, 49 wrong and the right one last. Every attempt is counted before
     * anything is hashed, so: at most 5 passwords are checked; answers are 401 (one of the first
     * four counted, wrong), 423 (locked, or the fifth counted and wrong) or 200 (the right one, only
     * if it was among the first five counted). Without a 200 the address ends locked and even the
     * right password is refused without hashing; with one, the count started afresh.
     */
    it('checks at most 5 of 50 parallel attempts', async () => {
      const who = await api.signup();
      const verify = vi.spyOn(PasswordHasher.prototype, 'verify');
      const dummy = vi.spyOn(PasswordHasher.prototype, 'verifyDummy');
      const passwords = [...Array.from({ length: 49 }, (_, i) => `wrong guess number ${i}`), who.password];
      const statuses = await Promise.all(
        passwords.map(
          async (password) => (await api.post('/login/start', { email: who.email, password })).statusCode,
        ),
      );
      expect(verify.mock.calls.length + dummy.mock.calls.length).toBeLessThanOrEqual(5);
      expect(countOf(statuses, 401) + countOf(statuses, 423) + countOf(statuses, 200)).toBe(50);
      expect(countOf(statuses, 401)).toBeLessThanOrEqual(4);
      expect(countOf(statuses, 200)).toBeLessThanOrEqual(1);
      const checked = verify.mock.calls.length;
      if (countOf(statuses, 200) === 1) {
        expect(countOf(statuses, 401) + 1).toBeLessThanOrEqual(5);
      } else {
        const right = await api.post('/login/start', { email: who.email, password: who.password });
        expect(right.statusCode).toBe(423);
        expect(right.json().reason).toBe('login_lockout');
        expect(verify.mock.calls.length).toBe(checked);
      }
    });

    it('counts attempts for an address without an account the same way', async () => {
      const dummy = vi.spyOn(PasswordHasher.prototype, 'verifyDummy');
      const email = `nobody.${Date.now()}@example.com`;
      const statuses = await Promise.all(
        Array.from(
          { length: 50 },
          async (_, i) => (await api.post('/login/start', { email, password: `guess ${i}` })).statusCode,
        ),
      );
      expect(dummy.mock.calls.length).toBeLessThanOrEqual(5);
      expect(countOf(statuses, 401)).toBeLessThanOrEqual(4);
      expect(countOf(statuses, 423)).toBeGreaterThanOrEqual(46);
    });
  });

  describe('across two instances on one database', () => {
    let second: TestApp;
    beforeAll(async () => {
      second = await startTestApp(t.database, { AUTH_RATE_LIMIT: '0', SIGNUP_RATE_LIMIT: '0' });
    });
    afterAll(() => second?.close());

    it('holds the lockout when 50 attempts are spread over both instances', async () => {
      const who = await api.signup();
      const verify = vi.spyOn(PasswordHasher.prototype, 'verify');
      const statuses = await Promise.all(
        Array.from({ length: 50 }, async (_, i) => {
          const app = i % 2 ? second.app : t.app;
          const password = i === 49 ? who.password : `wrong guess ${i}`;
          return (
            await app.inject({
              method: 'POST',
              url: '/api/auth/login/start',
              payload: { email: who.email, password },
            })
          ).statusCode;
        }),
      );
      expect(verify.mock.calls.length).toBeLessThanOrEqual(5);
      expect(countOf(statuses, 401)).toBeLessThanOrEqual(4);
      expect(countOf(statuses, 401) + countOf(statuses, 423) + countOf(statuses, 200)).toBe(50);
    });

    it('ends a session signed out on one instance on the other within a second', async () => {
      const who = await api.signup();
      const pair = await api.login(who);
      const meOnSecond = async () =>
        (await second.app.inject({ method: 'GET', url: '/api/auth/me', headers: bearer(pair.access_token) }))
          .statusCode;
      expect(await meOnSecond()).toBe(200);
      await api.post('/logout', { refresh_token: pair.refresh_token });
      await new Promise((resolve) => setTimeout(resolve, LIVE_SESSION_TTL_MS + 50));
      expect(await meOnSecond()).toBe(401);
    });
  });

  describe('item 3: current-password checks count in the lockout and are rate limited', () => {
    it('locks /password/change after 5 wrong current passwords, then limits the caller', async () => {
      const who = await api.signup();
      const { access_token } = await api.login(who);
      const change = (current: string) =>
        api.post(
          '/password/change',
          { current_password: current, new_password: 'a brand new passphrase' },
          access_token,
        );
      const statuses: number[] = [];
      for (let i = 0; i < 5; i++) statuses.push((await change(`wrong current ${i}`)).statusCode);
      expect(statuses).toEqual([400, 400, 400, 400, 423]);
      const right = await change(who.password);
      expect(right.statusCode).toBe(423);
      // The lock is the sign-in lockout: signing in is locked too.
      expect((await api.post('/login/start', { email: who.email, password: who.password })).statusCode).toBe(
        423,
      );
      const more: number[] = [];
      for (let i = 0; i < 5; i++) more.push((await change(who.password)).statusCode);
      // 10 checks per user per 15 minutes: the 11th call is refused before any lookup.
      expect(more).toEqual([423, 423, 423, 423, 429]);
    });

    it('counts wrong passwords on /2fa/disable the same way', async () => {
      const who = await api.signup();
      const { access_token } = await api.login(who);
      await t.hearth.storage.db
        .updateTable('users')
        .set({ two_factor_enabled: 1 })
        .where('id', '=', who.id)
        .execute();
      const statuses: number[] = [];
      for (let i = 0; i < 5; i++) {
        statuses.push((await api.post('/2fa/disable', { password: `wrong ${i}` }, access_token)).statusCode);
      }
      expect(statuses).toEqual([400, 400, 400, 400, 423]);
      expect((await api.post('/2fa/disable', { password: who.password }, access_token)).statusCode).toBe(423);
    });
  });

  describe('item 4: sessions end when they should', () => {
    it('ends the access token at logout', async () => {
      const who = await api.signup();
      const pair = await api.login(who);
      expect((await api.me(pair.access_token)).statusCode).toBe(200);
      await api.post('/logout', { refresh_token: pair.refresh_token });
      expect((await api.me(pair.access_token)).statusCode).toBe(401);
      expect((await patchSelf(who.id, pair.access_token)).statusCode).toBe(401);
    });

    it('ends the whole family’s access tokens when a refresh token is reused', async () => {
      const who = await api.signup();
      const first = await api.login(who);
      const second = (await api.post('/refresh', { refresh_token: first.refresh_token })).json();
      const third = (await api.post('/refresh', { refresh_token: second.refresh_token })).json();
      expect((await api.me(third.access_token)).statusCode).toBe(200);
      // The first token again, after its child was rotated too: reuse, the family is revoked.
      expect((await api.post('/refresh', { refresh_token: first.refresh_token })).statusCode).toBe(401);
      expect((await api.me(third.access_token)).statusCode).toBe(401);
      expect((await api.me(first.access_token)).statusCode).toBe(401);
    });

    it('ends every other session at a password change, keeping the one that changed it', async () => {
      const who = await api.signup();
      const other = await api.login(who);
      const mine = await api.login(who);
      const changed = await api.post(
        '/password/change',
        { current_password: who.password, new_password: 'another long passphrase' },
        mine.access_token,
      );
      expect(changed.statusCode).toBe(200);
      expect((await api.me(other.access_token)).statusCode).toBe(401);
      expect((await patchSelf(who.id, other.access_token)).statusCode).toBe(401);
      expect((await api.me(mine.access_token)).statusCode).toBe(401);
      expect((await api.me(changed.json().access_token)).statusCode).toBe(200);
    });

    it('ends every session at a password reset', async () => {
      const who = await api.signup();
      const pair = await api.login(who);
      const after = mail.mark();
      await api.post('/password/reset/request', { email: who.email });
      const code = await mail.code(who.email, /reset/i, { after });
      const reset = await api.post('/password/reset/confirm', {
        email: who.email,
        code,
        new_password: 'reset long passphrase',
      });
      expect(reset.statusCode).toBe(200);
      expect((await api.me(pair.access_token)).statusCode).toBe(401);
    });

    it('keeps old tokens dead after an administrator locks and unlocks', async () => {
      const admin = await t.user('admin');
      const who = await api.signup();
      const pair = await api.login(who);
      expect((await t.call(admin, 'POST', `/api/auth/users/${who.id}/lockout`, { lock: true })).status).toBe(
        200,
      );
      expect((await t.call(admin, 'POST', `/api/auth/users/${who.id}/lockout`, { lock: false })).status).toBe(
        200,
      );
      expect((await api.me(pair.access_token)).statusCode).toBe(401);
      expect((await api.post('/refresh', { refresh_token: pair.refresh_token })).statusCode).toBe(401);
      expect((await api.me((await api.login(who)).access_token)).statusCode).toBe(200);
    });

    it('ends the sessions of a user whose role changes', async () => {
      const admin = await t.user('admin');
      const who = await api.signup();
      const pair = await api.login(who);
      expect((await t.call(admin, 'PATCH', `/api/auth/users/${who.id}`, { role: 'resident' })).status).toBe(
        200,
      );
      expect((await api.me(pair.access_token)).statusCode).toBe(401);
    });

    it('lists the caller’s sessions and signs out one, or all others', async () => {
      const who = await api.signup();
      const chrome =
        'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36';
      const login = async (ua: string) =>
        (
          await api.post('/login/start', { email: who.email, password: who.password }, undefined, {
            'user-agent': ua,
          })
        ).json();
      const a = await login(chrome);
      const b = await login('Mozilla/5.0 (Android 14; Mobile; rv:121.0) Gecko/121.0 Firefox/121.0');
      const c = await login(chrome);
      const list = async (token: string) =>
        t.app.inject({ method: 'GET', url: '/api/auth/sessions', headers: bearer(token) });
      const listed = await list(a.access_token);
      expect(listed.statusCode).toBe(200);
      const sessions = listed.json().sessions as {
        id: string;
        browser: string;
        device: string;
        current: boolean;
      }[];
      expect(sessions).toHaveLength(3);
      expect(sessions.filter((s) => s.current)).toHaveLength(1);
      expect(sessions.map((s) => s.browser).sort()).toEqual([
        'Chrome on macOS',
        'Chrome on macOS',
        'Firefox on Android',
      ]);
      const phone = sessions.find((s) => s.device === 'Phone');
      if (!phone) throw new Error('no phone session');

      const signOutPhone = await t.app.inject({
        method: 'DELETE',
        url: `/api/auth/sessions/${phone.id}`,
        headers: bearer(a.access_token),
      });
      expect(signOutPhone.statusCode).toBe(200);
      expect((await api.me(b.access_token)).statusCode).toBe(401);
      expect((await api.post('/refresh', { refresh_token: b.refresh_token })).statusCode).toBe(401);

      // Someone else's session can't be signed out by id.
      const stranger = await api.signup();
      const strangerPair = await api.login(stranger);
      const strangerSession = (await list(strangerPair.access_token)).json().sessions[0].id;
      const foreign = await t.app.inject({
        method: 'DELETE',
        url: `/api/auth/sessions/${strangerSession}`,
        headers: bearer(a.access_token),
      });
      expect(foreign.statusCode).toBe(404);
      expect((await api.me(strangerPair.access_token)).statusCode).toBe(200);

      const others = await api.post('/sessions/revoke-others', undefined, a.access_token);
      expect(others.statusCode).toBe(200);
      expect((await api.me(c.access_token)).statusCode).toBe(401);
      expect((await api.me(a.access_token)).statusCode).toBe(200);
      expect((await list(a.access_token)).json().sessions).toHaveLength(1);
    });
  });

  describe('item 6: reset confirm tells nothing and locks nothing', () => {
    it('answers a known and an unknown address alike, and sign-in stays open', async () => {
      const who = await api.signup();
      const after = mail.mark();
      await api.post('/password/reset/request', { email: who.email });
      await mail.code(who.email, /reset/i, { after });
      const burst = async (email: string) => {
        const answers: string[] = [];
        for (let i = 0; i < 6; i++) {
          const res = await api.post('/password/reset/confirm', {
            email,
            code: '000000',
            new_password: 'some new passphrase',
          });
          answers.push(`${res.statusCode} ${res.json().error}`);
        }
        return answers;
      };
      const known = await burst(who.email);
      const unknown = await burst(`nobody.${Date.now()}@example.com`);
      expect(known).toEqual(unknown);
      expect(new Set(known)).toEqual(new Set([`400 ${MESSAGES.invalidCode}`]));
      expect((await api.post('/login/start', { email: who.email, password: who.password })).statusCode).toBe(
        200,
      );
    });
  });

  describe('item 7: sign-up does not reveal taken addresses', () => {
    it('answers like a new sign-up and mails the owner', async () => {
      const owner = await api.signup();
      const fresh = await api.post('/signup', person());
      const taken = await api.post('/signup', person({ email: owner.email }));
      expect(taken.statusCode).toBe(fresh.statusCode);
      expect(Object.keys(taken.json()).sort()).toEqual(Object.keys(fresh.json()).sort());
      const notice = await mail.next(owner.email, /tried to sign up/);
      expect(notice.raw).toContain('already has an account');
      // The owner's password still works; the attempt changed nothing.
      expect(
        (await api.post('/login/start', { email: owner.email, password: owner.password })).statusCode,
      ).toBe(200);
    });
  });

  describe('items 12 and 13: token answers are not cached; the cookie is the server’s', () => {
    it('answers tokens and /me with no-store', async () => {
      const who = await api.signup();
      const login = await api.post('/login/start', { email: who.email, password: who.password });
      expect(login.headers['cache-control']).toBe('no-store');
      const refreshed = await api.post('/refresh', { refresh_token: login.json().refresh_token });
      expect(refreshed.headers['cache-control']).toBe('no-store');
      expect((await api.me(refreshed.json().access_token)).headers['cache-control']).toBe('no-store');
    });

    it('sets auth_token HttpOnly, SameSite=Strict, Max-Age=900 on sign-in and refresh, and clears it on logout', async () => {
      const who = await api.signup();
      const login = await api.post('/login/start', { email: who.email, password: who.password });
      const cookieOf = (res: { cookies: { name: string; value: string }[] }) =>
        res.cookies.find((cookie) => cookie.name === 'auth_token') as Record<string, unknown> | undefined;
      expect(cookieOf(login)).toMatchObject({
        value: login.json().access_token,
        httpOnly: true,
        sameSite: 'Strict',
        maxAge: 900,
        path: '/',
      });
      expect(cookieOf(login)?.secure).toBeFalsy();
      const refreshed = await api.post('/refresh', { refresh_token: login.json().refresh_token });
      expect(cookieOf(refreshed)).toMatchObject({ value: refreshed.json().access_token, httpOnly: true });
      const logout = await api.post('/logout', { refresh_token: refreshed.json().refresh_token });
      const cleared = cookieOf(logout);
      expect(cleared?.value).toBe('');
      expect(Number(cleared?.maxAge ?? 0) <= 0 || Date.parse(String(cleared?.expires)) < Date.now()).toBe(
        true,
      );
    });
  });
});

describe('the auth_token cookie behind https', () => {
  const t = useTestApp({ env: { AUTH_RATE_LIMIT: '0', PUBLIC_URL: 'https://hearth.example.com' } });
  it('is Secure', async () => {
    const who = await t.api.signup();
    const login = await t.api.post('/login/start', { email: who.email, password: who.password });
    expect(login.cookies.find((cookie) => cookie.name === 'auth_token')).toMatchObject({
      secure: true,
      httpOnly: true,
    });
  });
});

import { describe, expect, it } from 'vitest';
import { type Person, person } from '../../test/accounts-client.js';
import { startTestApp, type TestApp, useTestApp } from '../../test/app.js';
import { testDatabases } from '../../test/databases.js';
import { createLogger } from '../logging/logger.js';
import { migrateToLatest } from '../storage/migrate.js';
import type { UserRecord } from '../users/index.js';
import { perUserLimit, RateLimitWindows } from './rate-limit.js';
import { noBody, noQuery } from './validation.js';

/** An unauthenticated sign-in attempt from `ip` behind the trusted proxy. */
const attemptFrom = (hearth: TestApp, ip: string) =>
  hearth.app.inject({
    method: 'POST',
    url: '/api/auth/login/start',
    remoteAddress: '127.0.0.1',
    headers: { 'x-forwarded-for': ip },
    payload: { email: `someone-${ip}@example.com`, password: 'wrong password' },
  });

describe.each(testDatabases())('auth rate limit kept in the database on $name', ({ create }) => {
  const env = { AUTH_RATE_LIMIT: '4', TRUST_PROXY: '127.0.0.1' };

  it('counts one address across two instances on one database, and across a restart', async () => {
    const database = await create();
    const first = await startTestApp(database, env);
    const second = await startTestApp(database, env);
    try {
      const statuses = [];
      for (const hearth of [first, second, first, second, first, second]) {
        statuses.push((await attemptFrom(hearth, '203.0.113.50')).statusCode);
      }
      expect(statuses).toEqual([401, 401, 401, 401, 429, 429]);
      await first.close();
      const restarted = await startTestApp(database, env);
      try {
        const limited = await attemptFrom(restarted, '203.0.113.50');
        expect(limited.statusCode).toBe(429);
        expect(limited.json()).toEqual({ error: 'Too many requests, please try again later' });
        expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
        expect((await attemptFrom(restarted, '203.0.113.51')).statusCode).toBe(401);
      } finally {
        await restarted.close();
      }
    } finally {
      await first.close();
      await second.close();
      await database.drop();
    }
  });

  it('counts every one of many hits at once, from two connections, exactly once', async () => {
    const database = await create();
    const [a, b] = [database.open(), database.open()];
    try {
      await migrateToLatest(a.db);
      const log = createLogger('silent');
      const windows = [new RateLimitWindows(a.db, log), new RateLimitWindows(b.db, log)];
      const hits = await Promise.all(
        Array.from({ length: 40 }, (_, i) => windows[i % 2]?.hit('test:burst', 60_000)),
      );
      expect(hits.map((hit) => hit?.hits).sort((x = 0, y = 0) => x - y)).toEqual(
        Array.from({ length: 40 }, (_, i) => i + 1),
      );
      expect(new Set(hits.map((hit) => hit?.endsAt)).size).toBe(1);
    } finally {
      await a.close();
      await b.close();
      await database.drop();
    }
  });

  it('starts a new window once the old one has ended', async () => {
    const database = await create();
    const storage = database.open();
    try {
      await migrateToLatest(storage.db);
      const windows = new RateLimitWindows(storage.db, createLogger('silent'));
      const now = Date.now();
      expect((await windows.hit('test:window', 1000, now)).hits).toBe(1);
      expect((await windows.hit('test:window', 1000, now + 500)).hits).toBe(2);
      const next = await windows.hit('test:window', 1000, now + 1000);
      expect(next).toEqual({ hits: 1, endsAt: now + 2000 });
    } finally {
      await storage.close();
      await database.drop();
    }
  });
});

describe.each(testDatabases())('per-IP rate limit of auth calls on $name', ({ create }) => {
  const t = useTestApp({ database: create, env: { AUTH_RATE_LIMIT: '5', TRUST_PROXY: '127.0.0.1' } });

  const attempt = (ip: string) => attemptFrom(t.hearth, ip);

  it('answers 429 with Retry-After past AUTH_RATE_LIMIT calls a minute from one address', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await attempt('203.0.113.7')).statusCode);
    expect(statuses.every((status) => status !== 429)).toBe(true);
    const limited = await attempt('203.0.113.7');
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(limited.json().error).toMatch(/too many requests/i);
    // Another client (behind the trusted proxy) is not affected.
    expect((await attempt('198.51.100.9')).statusCode).toBe(401);
    // Signed-in calls are not counted.
    expect((await t.app.inject({ method: 'GET', url: '/api/auth/me' })).statusCode).toBe(401);
  });
});

describe('per-user limit', () => {
  const t = useTestApp({
    routes: (app) =>
      app.post(
        '/api/test/limited',
        {
          config: perUserLimit(2, 60_000),
          // Stands in for a guard: the caller named by a header.
          onRequest: async (request) => {
            request.caller = { id: String(request.headers['x-user']) } as UserRecord;
          },
          schema: { querystring: noQuery, body: noBody },
        },
        async () => ({ ok: true }),
      ),
  });
  const call = (user: string) =>
    t.app.inject({ method: 'POST', url: '/api/test/limited', headers: { 'x-user': user } });

  it('counts each signed-in user on their own, whatever address they call from', async () => {
    expect([(await call('ada')).statusCode, (await call('ada')).statusCode]).toEqual([200, 200]);
    const limited = await call('ada');
    expect([limited.statusCode, limited.json()]).toEqual([
      429,
      { error: 'Too many requests, please try again later' },
    ]);
    expect((await call('grace')).statusCode).toBe(200);
  });
});

/**
 * Issue 32 item 13: sign-up answers alike for a taken address, but signing in with the address and
 * the password just chosen tells a free address (200) from a taken one (401). Each such probe
 * costs a sign-up, so sign-ups are bounded per client address (SIGNUP_RATE_LIMIT an hour).
 */
describe.each(testDatabases())('sign-ups per client address on $name', ({ create }) => {
  const env = { TRUST_PROXY: '127.0.0.1', AUTH_RATE_LIMIT: '1000' };
  const signUpFrom = (hearth: TestApp, ip: string, who: Partial<Person> = {}) =>
    hearth.app.inject({
      method: 'POST',
      url: '/api/auth/signup',
      remoteAddress: '127.0.0.1',
      headers: { 'x-forwarded-for': ip },
      payload: person(who),
    });
  const signInAs = (hearth: TestApp, who: Person) =>
    hearth.app.inject({
      method: 'POST',
      url: '/api/auth/login/start',
      payload: { email: who.email, password: who.password },
    });

  it('answers 429 with Retry-After from the sixth sign-up an hour, on every instance, and the sixth makes nothing', async () => {
    const database = await create();
    const first = await startTestApp(database, env);
    const second = await startTestApp(database, env);
    try {
      const taken = await first.users.create({
        email: 'taken@example.com',
        userName: 'taken',
        firstName: 'Taken',
        lastName: 'Owner',
        passwordHash: null,
        role: 'user',
      });
      const ip = '203.0.113.80';
      // Refusals cost nothing: a common password, a taken user name, a malformed address.
      expect((await signUpFrom(first, ip, { password: 'password123' })).statusCode).toBe(400);
      expect((await signUpFrom(first, ip, { user_name: taken.userName })).statusCode).toBe(409);
      expect((await signUpFrom(first, ip, { email: 'not-an-address' })).statusCode).toBe(400);
      // Five sign-ups, new addresses and a taken one alike, on either instance.
      const statuses = [];
      for (const [hearth, who] of [
        [first, {}],
        [second, { email: taken.email }],
        [first, {}],
        [second, {}],
        [first, {}],
      ] as const) {
        statuses.push((await signUpFrom(hearth, ip, who)).statusCode);
      }
      expect(statuses).toEqual([201, 201, 201, 201, 201]);

      const probe = person();
      const limited = await signUpFrom(second, ip, probe);
      expect([limited.statusCode, limited.json()]).toEqual([
        429,
        { error: 'Too many requests, please try again later' },
      ]);
      const retryAfter = Number(limited.headers['retry-after']);
      expect(retryAfter).toBeGreaterThan(55 * 60);
      expect(retryAfter).toBeLessThanOrEqual(60 * 60);
      // Nothing was made: the address is no account, so the oracle's sign-in tells nothing.
      expect(await first.users.findByEmail(probe.email)).toBeUndefined();
      expect((await signInAs(first, probe)).statusCode).toBe(401);

      // Another address is not affected; an IPv6 client counts by its /64, as one household does.
      expect((await signUpFrom(first, '198.51.100.80')).statusCode).toBe(201);
      for (let i = 1; i <= 5; i++) {
        expect((await signUpFrom(first, `2001:db8:1:2::${i.toString(16)}`)).statusCode).toBe(201);
      }
      expect((await signUpFrom(second, '2001:db8:1:2:ffff::1')).statusCode).toBe(429);
      expect((await signUpFrom(second, '2001:db8:1:3::1')).statusCode).toBe(201);
    } finally {
      await first.close();
      await second.close();
      await database.drop();
    }
  });

  it('takes its number from SIGNUP_RATE_LIMIT, and 0 turns it off', async () => {
    const database = await create();
    const two = await startTestApp(database, { ...env, SIGNUP_RATE_LIMIT: '2' });
    try {
      const statuses = [];
      for (let i = 0; i < 3; i++) statuses.push((await signUpFrom(two, '203.0.113.81')).statusCode);
      expect(statuses).toEqual([201, 201, 429]);
    } finally {
      await two.close();
    }
    const off = await startTestApp(database, { ...env, SIGNUP_RATE_LIMIT: '0' });
    try {
      for (let i = 0; i < 7; i++) expect((await signUpFrom(off, '203.0.113.81')).statusCode).toBe(201);
    } finally {
      await off.close();
      await database.drop();
    }
  });
});

import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { person } from '../../test/accounts-client.js';
import { useTestApp } from '../../test/app.js';
import { testDatabases } from '../../test/databases.js';

describe.each(testDatabases())('accounts security on $name', ({ create }) => {
  const t = useTestApp({
    database: create,
    mail: true,
    env: { AUTH_RATE_LIMIT: '0', SIGNUP_RATE_LIMIT: '0' },
  });
  const { api, mail } = t;

  it('answers a 2 MB JSON body with 413 and malformed JSON with 400, and keeps serving', async () => {
    const big = await t.app.inject({
      method: 'POST',
      url: '/api/auth/signup',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ ...person(), first_name: 'x'.repeat(2 * 1024 * 1024) }),
    });
    expect(big.statusCode).toBe(413);
    expect(big.json().error).toBeTruthy();
    const malformed = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login/start',
      headers: { 'content-type': 'application/json' },
      payload: '{"email": "a@b.co", "password": ',
    });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json()).toEqual({ error: 'Malformed JSON body' });
    for (const payload of ['[]', 'null', '"text"', '42']) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/auth/login/start',
        headers: { 'content-type': 'application/json' },
        payload,
      });
      expect(res.statusCode).toBe(400);
    }
    const wrongTypes = await api.post('/signup', { ...person(), email: ['a@b.co'], password: { $gt: '' } });
    expect(wrongTypes.statusCode).toBe(400);
    expect((await api.signup()).id).toBeTruthy();
  });

  it('never answers with a password hash, another user’s token, or logs a secret', async () => {
    const alice = await api.signup();
    const bob = await api.signup();
    const bodies: string[] = [];
    const record = <T extends { body: string }>(res: T) => {
      bodies.push(res.body);
      return res;
    };
    const aliceLogin = record(await api.post('/login/start', alice));
    const bobLogin = record(await api.post('/login/start', bob));
    const aliceTokens = aliceLogin.json();
    const bobTokens = bobLogin.json();
    record(await api.me(aliceTokens.access_token));
    record(await api.post('/refresh', { refresh_token: aliceTokens.refresh_token }));
    record(await api.post('/email/verify/request', {}, aliceTokens.access_token));
    record(await api.post('/password/reset/request', { email: alice.email }));
    const resetMail = await mail.next(alice.email, /reset/i);
    record(
      await api.post('/password/reset/confirm', { email: alice.email, code: '000000', new_password: 'x' }),
    );

    const aliceBodies = bodies.filter((body) => !body.includes(bobTokens.access_token));
    expect(bodies.join('\n')).not.toMatch(/\$argon2|password_hash|passwordHash/);
    for (const body of aliceBodies) {
      expect(body).not.toContain(bobTokens.refresh_token);
    }
    expect(bodies.filter((body) => body.includes(bobTokens.refresh_token))).toHaveLength(1);

    const logs = t.hearth.logs.text;
    for (const secret of [
      alice.password,
      bob.password,
      aliceTokens.refresh_token,
      resetMail.code ?? 'none',
    ]) {
      expect(logs).not.toContain(secret);
    }
  });

  it('keeps /healthz under 50 ms while 50 logins hash at once', async () => {
    const who = await api.signup();
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const port = (t.app.server.address() as AddressInfo).port;
    expect(address).toContain(String(port));
    const url = `http://127.0.0.1:${port}`;
    const logins = Array.from({ length: 50 }, (_, i) =>
      fetch(`${url}/api/auth/login/start`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        // 50 different addresses: one address's lockout would stop hashing after 5 (issue 11 item 2).
        body: JSON.stringify({
          email: i === 0 ? who.email : `nobody${i}.${Date.now()}@example.com`,
          password: who.password,
        }),
      }).then((res) => res.status),
    );
    // Once the burst is accepted, the hashing runs on the thread pool; probe while it does.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const timings: number[] = [];
    for (let i = 0; i < 9; i++) {
      const started = performance.now();
      const res = await fetch(`${url}/healthz`);
      expect(res.status).toBe(200);
      await res.text();
      timings.push(performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 30));
    }
    const statuses = await Promise.all(logins);
    expect(statuses.filter((status) => status === 200 || status === 401 || status === 423)).toHaveLength(50);
    timings.sort((a, b) => a - b);
    // The median, not the maximum: parallel work on a shared 2-core machine adds scheduler noise.
    expect(timings[4]).toBeLessThan(50);
  });
});

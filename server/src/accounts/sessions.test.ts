import { SignJWT, UnsecuredJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../test/app.js';
import { testDatabases } from '../../test/databases.js';

describe.each(testDatabases())('refresh sessions on $name', ({ create }) => {
  const t = useTestApp({
    database: create,
    env: { AUTH_RATE_LIMIT: '0', SIGNUP_RATE_LIMIT: '0', AUTH_SECRET: 's'.repeat(40) },
  });
  const { api } = t;

  const refresh = (token: string) => api.post('/refresh', { refresh_token: token });

  it('rotates the refresh token on every use', async () => {
    const who = await api.signup();
    const first = await api.login(who);
    const second = await refresh(first.refresh_token);
    expect(second.statusCode).toBe(200);
    const pair = second.json();
    expect(pair.refresh_token).not.toBe(first.refresh_token);
    expect((await api.me(pair.access_token)).json().id).toBe(who.id);
    const third = await refresh(pair.refresh_token);
    expect(third.statusCode).toBe(200);
  });

  it('gives two tabs refreshing at once the same new pair', async () => {
    const who = await api.signup();
    const { refresh_token } = await api.login(who);
    const [a, b] = await Promise.all([refresh(refresh_token), refresh(refresh_token)]);
    expect(a.statusCode).toBe(200);
    expect(b.statusCode).toBe(200);
    expect(b.json()).toEqual(a.json());
    // And the family is still alive.
    expect((await refresh(a.json().refresh_token)).statusCode).toBe(200);
  });

  it('revokes the whole family when a rotated token comes back after the grace', async () => {
    const who = await api.signup();
    const stolen = (await api.login(who)).refresh_token;
    const next = (await refresh(stolen)).json().refresh_token;
    await t.hearth.storage.db
      .updateTable('refresh_tokens')
      .set({ rotated_at: new Date(Date.now() - 6000).toISOString() })
      .where('user_id', '=', who.id)
      .where('replaced_by', 'is not', null)
      .execute();
    const reuse = await refresh(stolen);
    expect(reuse.statusCode).toBe(401);
    expect(reuse.json().error).toBe('Invalid or expired refresh token');
    // The legitimate holder's newer token died with the family.
    expect((await refresh(next)).statusCode).toBe(401);
    // Other sign-ins of the same user are untouched.
    expect((await refresh((await api.login(who)).refresh_token)).statusCode).toBe(200);
  });

  it('spends a single-use token once, with no grace', async () => {
    const who = await api.signup();
    const user = await t.hearth.users.findById(who.id);
    if (!user) throw new Error('no user');
    const pair = await t.hearth.sessions.issue(user, { accessTtlSeconds: 60, singleUse: true });
    const claims = JSON.parse(Buffer.from(pair.access_token.split('.')[1] ?? '', 'base64url').toString());
    expect(claims.exp - claims.iat).toBe(60);
    const first = await refresh(pair.refresh_token);
    expect(first.statusCode).toBe(200);
    expect((await refresh(pair.refresh_token)).statusCode).toBe(401);
    expect((await refresh(first.json().refresh_token)).statusCode).toBe(401);
  });

  it('refuses idle-expired, absolute-expired, unknown and malformed tokens', async () => {
    const who = await api.signup();
    const idle = (await api.login(who)).refresh_token;
    const old = (await api.login(who)).refresh_token;
    const rows = await t.hearth.storage.db
      .selectFrom('refresh_tokens')
      .select(['id', 'family_id'])
      .where('user_id', '=', who.id)
      .orderBy('created_at')
      .execute();
    await t.hearth.storage.db
      .updateTable('refresh_tokens')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('id', '=', rows[0]?.id ?? '')
      .execute();
    expect((await refresh(idle)).statusCode).toBe(401);
    // Rotation never extends a family past its 30 days.
    await t.hearth.storage.db
      .updateTable('refresh_tokens')
      .set({ family_expires_at: new Date(Date.now() + 1000).toISOString() })
      .where('family_id', '=', rows[1]?.family_id ?? '')
      .execute();
    const rotated = await refresh(old);
    expect(rotated.statusCode).toBe(200);
    const child = await t.hearth.storage.db
      .selectFrom('refresh_tokens')
      .select('expires_at')
      .where('family_id', '=', rows[1]?.family_id ?? '')
      .where('rotated_at', 'is', null)
      .executeTakeFirstOrThrow();
    expect(Date.parse(child.expires_at)).toBeLessThanOrEqual(Date.now() + 1000);
    for (const token of ['nope', '', 'x'.repeat(5000)]) expect((await refresh(token)).statusCode).toBe(401);
    expect((await api.post('/refresh', {})).statusCode).toBe(401);
  });

  it('logs out by revoking the family of the token', async () => {
    const who = await api.signup();
    const pair = await api.login(who);
    const res = await api.post('/logout', { refresh_token: pair.refresh_token }, pair.access_token);
    expect(res.statusCode).toBe(200);
    expect((await refresh(pair.refresh_token)).statusCode).toBe(401);
  });

  it('ends every session of the user on password change, keeping the caller signed in', async () => {
    const who = await api.signup();
    const other = await api.login(who);
    const mine = await api.login(who);
    const res = await api.post(
      '/password/change',
      { current_password: who.password, new_password: 'a brand new passphrase' },
      mine.access_token,
    );
    expect(res.statusCode).toBe(200);
    expect((await refresh(other.refresh_token)).statusCode).toBe(401);
    expect((await refresh(mine.refresh_token)).statusCode).toBe(401);
    expect((await refresh(res.json().refresh_token)).statusCode).toBe(200);
    expect((await api.post('/login/start', { email: who.email, password: who.password })).statusCode).toBe(
      401,
    );
    await api.login({ email: who.email, password: 'a brand new passphrase' });
  });

  it.each([
    [{}, 'All password fields are required'],
    [
      { current_password: 'wrong wrong wrong', new_password: 'another passphrase' },
      'Current password is incorrect',
    ],
    [
      { current_password: 'SAME', new_password: 'SAME' },
      'New password must be different from current password',
    ],
    [{ current_password: 'CURRENT', new_password: 'short' }, 'Password must be at least 8 characters'],
  ])('refuses a password change %j', async (body, error) => {
    const who = await api.signup();
    const { access_token } = await api.login(who);
    const fill = (value: unknown) => (value === 'SAME' || value === 'CURRENT' ? who.password : value);
    const payload = Object.fromEntries(Object.entries(body).map(([k, v]) => [k, fill(v)]));
    const res = await api.post('/password/change', payload, access_token);
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe(error);
  });

  it('answers 401 on /me to forged, expired, alg:none and missing tokens', async () => {
    const who = await api.signup();
    const key = new TextEncoder().encode('s'.repeat(40));
    const claims = { role: 'admin' };
    const base = (jwt: SignJWT) => jwt.setSubject(who.id).setIssuer('hearth').setAudience('hearth');
    const forged = await base(new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }))
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode('f'.repeat(40)));
    const expired = await base(new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }))
      .setIssuedAt(Math.floor(Date.now() / 1000) - 3600)
      .setExpirationTime(Math.floor(Date.now() / 1000) - 60)
      .sign(key);
    const none = new UnsecuredJWT(claims)
      .setSubject(who.id)
      .setIssuer('hearth')
      .setAudience('hearth')
      .setExpirationTime('1h')
      .encode();
    for (const token of [forged, expired, none, 'garbage']) {
      const res = await api.me(token);
      expect(res.statusCode).toBe(401);
    }
    expect((await t.app.inject({ method: 'GET', url: '/api/auth/me' })).statusCode).toBe(401);
  });

  it('refuses to refresh for a user an administrator locked', async () => {
    const who = await api.signup();
    const pair = await api.login(who);
    await t.hearth.storage.db
      .updateTable('users')
      .set({ lockout_enabled: 1, lockout_reason: 'admin_lock' })
      .where('id', '=', who.id)
      .execute();
    expect((await refresh(pair.refresh_token)).statusCode).toBe(401);
    expect((await api.me(pair.access_token)).statusCode).toBe(401);
  });
});

import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { decodeJwt } from 'jose';
import Provider from 'oidc-provider';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { person } from '../../../test/accounts-client.js';
import { startTestApp, type TestApp, useTestApp } from '../../../test/app.js';
import { testDatabases } from '../../../test/databases.js';
import { SUBJECTS } from '../../../test/mail-catcher.js';

const PUBLIC_URL = 'http://hearth.test';
const PROVIDER = 'testidp';
const CALLBACK = `${PUBLIC_URL}/api/auth/oauth/${PROVIDER}/callback`;

interface Person {
  email?: string;
  email_verified?: boolean;
  given_name?: string;
  family_name?: string;
  preferred_username?: string;
}

/** A real OpenID provider (oidc-provider) with its development login and consent pages. */
async function startProvider(people: Map<string, Person>) {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: 'hearth',
        client_secret: 'hearth-client-secret',
        redirect_uris: [CALLBACK],
        grant_types: ['authorization_code'],
        response_types: ['code'],
      },
    ],
    findAccount: async (_ctx, id) => {
      const person = people.get(id);
      return person ? { accountId: id, claims: async () => ({ sub: id, ...person }) } : undefined;
    },
    claims: {
      email: ['email', 'email_verified'],
      profile: ['given_name', 'family_name', 'preferred_username'],
    },
    features: { devInteractions: { enabled: true } },
    pkce: { required: () => true },
    cookies: { keys: ['oidc-test-cookie-key'] },
  });
  server.on('request', provider.callback());
  return { issuer, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** Just enough of a browser for the provider's pages: cookies and manual redirects. */
class ProviderBrowser {
  private readonly cookies = new Map<string, string>();

  async request(url: string, init: { method?: string; form?: Record<string, string> } = {}) {
    const response = await fetch(url, {
      method: init.method ?? 'GET',
      redirect: 'manual',
      headers: {
        cookie: [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; '),
        ...(init.form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
      ...(init.form ? { body: new URLSearchParams(init.form).toString() } : {}),
    });
    for (const header of response.headers.getSetCookie()) {
      const pair = header.split(';')[0] ?? '';
      const index = pair.indexOf('=');
      this.cookies.set(pair.slice(0, index), pair.slice(index + 1));
    }
    return response;
  }

  /**
   * Follows the provider's redirects and answers its pages (log in as `login`, consent, or press
   * Cancel) until it sends the browser back to Hearth; answers that callback URL.
   */
  async authorize(
    authorizationUrl: string,
    login: string,
    action: 'allow' | 'cancel' = 'allow',
  ): Promise<URL> {
    let url = authorizationUrl;
    for (let step = 0; step < 20; step++) {
      if (url.startsWith(PUBLIC_URL)) return new URL(url);
      const response = await this.request(url);
      if (response.status >= 300 && response.status < 400) {
        url = new URL(response.headers.get('location') as string, url).href;
        continue;
      }
      const html = await response.text();
      expect(response.status, html).toBe(200);
      if (action === 'cancel') {
        url = new URL(/href="([^"]*\/abort)"/.exec(html)?.[1] as string, url).href;
        continue;
      }
      const formAction = new URL(/action="([^"]+)"/.exec(html)?.[1] as string, url).href;
      const prompt = /name="prompt" value="([a-z]+)"/.exec(html)?.[1];
      const submitted = await this.request(formAction, {
        method: 'POST',
        form: prompt === 'login' ? { prompt, login, password: 'anything' } : { prompt: prompt as string },
      });
      url = new URL(submitted.headers.get('location') as string, formAction).href;
    }
    throw new Error('the provider never sent the browser back');
  }
}

describe.each(testDatabases())('OpenID Connect sign-in on $name', ({ create }) => {
  const people = new Map<string, Person>();
  let idp: Awaited<ReturnType<typeof startProvider>>;
  const oidcEnv = () => ({
    PUBLIC_URL,
    OIDC_ISSUER: idp.issuer,
    OIDC_CLIENT_ID: 'hearth',
    OIDC_CLIENT_SECRET: 'hearth-client-secret',
    OIDC_PROVIDER: PROVIDER,
  });
  beforeAll(async () => {
    idp = await startProvider(people);
  });
  afterAll(() => idp?.close());
  const t = useTestApp({
    database: create,
    mail: true,
    env: () => ({ ...oidcEnv(), AUTH_RATE_LIMIT: '1000', SIGNUP_RATE_LIMIT: '0' }),
  });

  /** Starts at Hearth's login URL, goes through the provider, and lands on Hearth's callback. */
  async function startLogin() {
    const start = await t.app.inject({ method: 'GET', url: `/api/auth/oauth/${PROVIDER}/login` });
    expect(start.statusCode).toBe(302);
    const cookie = start.cookies.find((c) => c.name === 'hearth_oidc_state');
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax' });
    return { authorizationUrl: start.headers.location as string, stateCookie: cookie?.value as string };
  }
  async function callback(url: URL, stateCookie: string | undefined) {
    const response = await t.app.inject({
      method: 'GET',
      url: `${url.pathname}${url.search}`,
      ...(stateCookie ? { cookies: { hearth_oidc_state: stateCookie } } : {}),
    });
    expect(response.statusCode).toBe(302);
    const location = new URL(response.headers.location as string, PUBLIC_URL);
    expect(location.pathname).toBe('/');
    return location.searchParams;
  }
  async function signIn(login: string, action: 'allow' | 'cancel' = 'allow') {
    const { authorizationUrl, stateCookie } = await startLogin();
    const back = await new ProviderBrowser().authorize(authorizationUrl, login, action);
    return callback(back, stateCookie);
  }
  const me = async (accessToken: string) => {
    const claims = decodeJwt(accessToken);
    return t.hearth.users.findById(claims.sub as string);
  };

  it('lists the configured provider for the "Continue with" button', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/auth/oauth/providers' });
    expect(response.json()).toEqual({ providers: [{ id: PROVIDER, name: 'Testidp' }] });
  });

  it('sends the browser to the provider with state, nonce and PKCE (S256)', async () => {
    const { authorizationUrl } = await startLogin();
    const url = new URL(authorizationUrl);
    expect(url.origin).toBe(idp.issuer);
    expect(url.searchParams.get('redirect_uri')).toBe(CALLBACK);
    expect(url.searchParams.get('client_id')).toBe('hearth');
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url.searchParams.get('code_challenge')).toMatch(/^[\w-]{43}$/);
    expect(url.searchParams.get('state')).toMatch(/^[\w-]{20,}$/);
    expect(url.searchParams.get('nonce')).toMatch(/^[\w-]{20,}$/);
    expect(url.searchParams.get('scope')).toBe('openid email profile');
  });

  it('creates an account on first sign-in (the very first becomes admin) and signs the same one in again', async () => {
    people.set('sub-ada', {
      email: 'Ada@Example.com',
      email_verified: true,
      given_name: 'Ada',
      family_name: 'Lovelace',
      preferred_username: 'ada',
    });
    const first = await signIn('sub-ada');
    expect(first.get('error')).toBeNull();
    const accessToken = first.get('access_token') as string;
    const claims = decodeJwt(accessToken);
    expect((claims.exp as number) - (claims.iat as number)).toBeLessThanOrEqual(60);
    const user = await me(accessToken);
    expect(user).toMatchObject({
      email: 'ada@example.com',
      userName: 'ada',
      firstName: 'Ada',
      lastName: 'Lovelace',
      role: 'admin',
      emailConfirmed: true,
      passwordHash: null,
    });
    const list = await t.app.inject({
      method: 'GET',
      url: '/api/auth/users',
      headers: { authorization: `Bearer ${accessToken}` },
    });
    expect(list.statusCode).toBe(200);

    const again = await signIn('sub-ada');
    expect((await me(again.get('access_token') as string))?.id).toBe(user?.id);
    expect(await t.hearth.users.count()).toBe(1);
    expect(t.hearth.logs.text).not.toContain(accessToken);
  });

  it('makes later accounts plain users with a unique user name', async () => {
    people.set('sub-ada-2', {
      email: 'ada@elsewhere.example',
      email_verified: true,
      preferred_username: 'ada',
    });
    const result = await signIn('sub-ada-2');
    const user = await me(result.get('access_token') as string);
    expect(user?.role).toBe('user');
    expect(user?.userName).toMatch(/^ada-\d{4}$/);
  });

  // Issue 11 item 5: an existing account's e-mail is never linked silently (that skipped its
  // password and its 2FA). The first provider sign-in answers account_exists, the account is
  // untouched, and its owner connects the provider from Settings after a full sign-in.
  it('never links an existing account by e-mail: answers account_exists and changes nothing', async () => {
    const existing = await t.hearth.users.create({
      email: 'grace@example.com',
      userName: 'grace',
      firstName: 'Grace',
      lastName: 'Hopper',
      passwordHash: '$argon2id$kept',
      role: 'admin',
      emailConfirmed: true,
    });
    people.set('sub-grace', { email: 'grace@example.com', email_verified: true });
    const result = await signIn('sub-grace');
    expect(result.get('error')).toBe('account_exists');
    expect(result.get('access_token')).toBeNull();
    expect(await t.hearth.users.findById(existing.id)).toMatchObject({ passwordHash: '$argon2id$kept' });
    const squatted = await t.hearth.users.create({
      email: 'owner@example.com',
      userName: 'squatter',
      firstName: 'Not',
      lastName: 'Owner',
      passwordHash: '$argon2id$attacker',
      role: 'user',
    });
    people.set('sub-owner', { email: 'owner@example.com', email_verified: true });
    expect((await signIn('sub-owner')).get('error')).toBe('account_exists');
    expect(await t.hearth.users.findById(squatted.id)).toMatchObject({ emailConfirmed: false });
  });

  it('connects the provider from Settings after a full sign-in, mails the owner, lists and unlinks it', async () => {
    const owner = await t.user('resident', {
      email: 'connect@example.com',
      passwordHash: '$argon2id$owner',
      emailConfirmed: true,
    });
    const token = await t.tokenFor(owner);
    const after = t.mail.mark();
    // Signed out, nobody can start a connect.
    const anonymous = await t.app.inject({ method: 'POST', url: `/api/auth/oauth/${PROVIDER}/connect` });
    expect(anonymous.statusCode).toBe(401);
    const start = await t.app.inject({
      method: 'POST',
      url: `/api/auth/oauth/${PROVIDER}/connect`,
      headers: { authorization: `Bearer ${token}` },
    });
    expect(start.statusCode).toBe(200);
    const stateCookie = start.cookies.find((c) => c.name === 'hearth_oidc_state')?.value;
    // The provider account has a different e-mail: linking is by the signed-in user, not by e-mail.
    people.set('sub-connect', { email: 'connect.elsewhere@example.com', email_verified: true });
    const back = await new ProviderBrowser().authorize(start.json().url, 'sub-connect');
    const done = await t.app.inject({
      method: 'GET',
      url: `${back.pathname}${back.search}`,
      ...(stateCookie ? { cookies: { hearth_oidc_state: stateCookie } } : {}),
    });
    expect(done.statusCode).toBe(302);
    expect(done.headers.location).toBe(`/?connected=${PROVIDER}`);
    const notice = await t.mail.next(owner.email, /was connected/, { after });
    expect(notice.raw).toContain('connect.elsewhere@example.com');

    // Now the provider signs the owner in.
    const result = await signIn('sub-connect');
    expect((await me(result.get('access_token') as string))?.id).toBe(owner.id);

    const list = await t.call(owner, 'GET', '/api/auth/identities');
    expect(list.body.identities).toEqual([
      expect.objectContaining({ provider: PROVIDER, email: 'connect.elsewhere@example.com' }),
    ]);
    expect((await t.call(owner, 'DELETE', `/api/auth/identities/${PROVIDER}`)).status).toBe(200);
    expect((await t.call(owner, 'GET', '/api/auth/identities')).body.identities).toEqual([]);
    // Unlinked: the provider account no longer opens the owner's account.
    const again = await signIn('sub-connect');
    expect((await me(again.get('access_token') as string))?.id).not.toBe(owner.id);
  });

  it('refuses to disconnect the only way into an account without a password', async () => {
    people.set('sub-only', { email: 'only@example.com', email_verified: true });
    const result = await signIn('sub-only');
    const user = await me(result.get('access_token') as string);
    if (!user) throw new Error('no user');
    const refused = await t.call(user, 'DELETE', `/api/auth/identities/${PROVIDER}`);
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatch(/Set a password before disconnecting/);
  });

  it('echoes the browser’s nonce with the tokens', async () => {
    people.set('sub-nonce', { email: 'nonce@example.com', email_verified: true });
    const nonce = 'n0nce-from-the-browser-123';
    const start = await t.app.inject({
      method: 'GET',
      url: `/api/auth/oauth/${PROVIDER}/login?nonce=${nonce}`,
    });
    const stateCookie = start.cookies.find((c) => c.name === 'hearth_oidc_state')?.value;
    const back = await new ProviderBrowser().authorize(start.headers.location as string, 'sub-nonce');
    const result = await callback(back, stateCookie);
    expect(result.get('nonce')).toBe(nonce);
    expect(result.get('access_token')).toBeTruthy();
    const bad = await t.app.inject({
      method: 'GET',
      url: `/api/auth/oauth/${PROVIDER}/login?nonce=<script>`,
    });
    expect(bad.statusCode).toBe(400);
  });

  it('refuses an e-mail the provider has not verified', async () => {
    people.set('sub-unverified', { email: 'unverified@example.com', email_verified: false });
    const result = await signIn('sub-unverified');
    expect(result.get('error')).toBe('oauth_failed');
    expect(result.get('access_token')).toBeNull();
    expect(await t.hearth.users.findByEmail('unverified@example.com')).toBeUndefined();
  });

  it('answers email_conflict when the e-mail belongs to an account linked to another subject', async () => {
    people.set('sub-linus-1', { email: 'linus@example.com', email_verified: true });
    expect((await signIn('sub-linus-1')).get('access_token')).toBeTruthy();
    people.set('sub-linus-2', { email: 'linus@example.com', email_verified: true });
    const result = await signIn('sub-linus-2');
    expect(result.get('error')).toBe('email_conflict');
    expect(result.get('access_token')).toBeNull();
  });

  it('answers oauth_cancelled when the person cancels at the provider', async () => {
    const result = await signIn('sub-ada', 'cancel');
    expect([...result.keys()]).toEqual(['error']);
    expect(result.get('error')).toBe('oauth_cancelled');
  });

  it('refuses a forged state, a replayed callback and a callback from another browser', async () => {
    people.set('sub-replay', { email: 'replay@example.com', email_verified: true });
    const { authorizationUrl, stateCookie } = await startLogin();
    const back = await new ProviderBrowser().authorize(authorizationUrl, 'sub-replay');

    const forged = new URL(back);
    forged.searchParams.set('state', 'forged-state-value');
    expect((await callback(forged, 'forged-state-value')).get('error')).toBe('oauth_failed');

    expect((await callback(back, undefined)).get('error')).toBe('oauth_failed');
    // The state was spent by the attempt without the cookie: the real browser can't reuse it either.
    expect((await callback(back, stateCookie)).get('error')).toBe('oauth_failed');
    expect(await t.hearth.users.findByEmail('replay@example.com')).toBeUndefined();

    const fresh = await startLogin();
    const good = await new ProviderBrowser().authorize(fresh.authorizationUrl, 'sub-replay');
    expect((await callback(good, fresh.stateCookie)).get('access_token')).toBeTruthy();
    expect((await callback(good, fresh.stateCookie)).get('error')).toBe('oauth_failed');
  });

  it('answers oauth_exchange_failed when the code is not accepted', async () => {
    people.set('sub-badcode', { email: 'badcode@example.com', email_verified: true });
    const { authorizationUrl, stateCookie } = await startLogin();
    const back = await new ProviderBrowser().authorize(authorizationUrl, 'sub-badcode');
    back.searchParams.set('code', 'not-a-real-code');
    expect((await callback(back, stateCookie)).get('error')).toBe('oauth_exchange_failed');
  });

  it('gives no tokens to an account an administrator locked', async () => {
    people.set('sub-locked', { email: 'locked@example.com', email_verified: true });
    const user = await me((await signIn('sub-locked')).get('access_token') as string);
    await t.hearth.storage.db
      .updateTable('users')
      .set({ lockout_enabled: 1, lockout_reason: 'admin_lock' })
      .where('id', '=', user?.id as string)
      .execute();
    const result = await signIn('sub-locked');
    expect(result.get('error')).toBe('oauth_failed');
    expect(result.get('access_token')).toBeNull();
  });

  it('issues a refresh token that can be spent only once', async () => {
    const result = await signIn('sub-ada');
    const refreshToken = result.get('refresh_token') as string;
    expect(refreshToken).toBeTruthy();
    const refresh = () =>
      t.app.inject({
        method: 'POST',
        url: '/api/auth/refresh',
        payload: { refresh_token: refreshToken },
      });
    expect((await refresh()).statusCode).toBe(200);
    expect((await refresh()).statusCode).toBe(401);
  });

  it('answers 404 for a provider that is not configured', async () => {
    for (const path of ['/api/auth/oauth/google/login', '/api/auth/oauth/google/callback?code=x&state=y']) {
      const response = await t.app.inject({ method: 'GET', url: path });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ error: 'Unknown identity provider' });
    }
  });

  it('answers token_failed when no session can be issued', async () => {
    people.set('sub-notoken', { email: 'notoken@example.com', email_verified: true });
    const issue = t.hearth.sessions.issue;
    t.hearth.sessions.issue = async () => {
      throw new Error('database unavailable');
    };
    try {
      const result = await signIn('sub-notoken');
      expect(result.get('error')).toBe('token_failed');
      expect(result.get('access_token')).toBeNull();
    } finally {
      t.hearth.sessions.issue = issue;
    }
  });

  // Issue 32 item 12: "Connect {provider}" worked with any valid access token, so a token stolen
  // for 15 minutes could attach an identity that outlived a password change. Linking now needs the
  // password (or a sign-in) within the last 5 minutes, and a password reset disconnects providers
  // unless the person asks to keep them.

  /** A person signed up and signed in with a real password; `session` is the sign-in's id. */
  async function signedUp() {
    const who = await t.api.signup(person());
    const { access_token: token } = await t.api.login(who);
    return { who, token, session: decodeJwt(token).sid as string };
  }
  /** Moves the session's last proof of identity `minutes` into the past. */
  const provedAgo = (session: string, minutes: number) =>
    t.hearth.storage.db
      .updateTable('auth_sessions')
      .set({ authenticated_at: new Date(Date.now() - minutes * 60_000).toISOString() })
      .where('id', '=', session)
      .execute();
  const startConnect = (token: string) =>
    t.app.inject({
      method: 'POST',
      url: `/api/auth/oauth/${PROVIDER}/connect`,
      headers: { authorization: `Bearer ${token}` },
    });
  /** The whole connect: start, the provider as `sub`, the callback in the same browser. */
  async function connect(token: string, sub: string) {
    const start = await startConnect(token);
    expect(start.statusCode, start.body).toBe(200);
    const stateCookie = start.cookies.find((c) => c.name === 'hearth_oidc_state')?.value;
    const back = await new ProviderBrowser().authorize(start.json().url, sub);
    const done = await t.app.inject({
      method: 'GET',
      url: `${back.pathname}${back.search}`,
      ...(stateCookie ? { cookies: { hearth_oidc_state: stateCookie } } : {}),
    });
    expect(done.headers.location).toBe(`/?connected=${PROVIDER}`);
  }
  const identitiesOf = async (token: string) =>
    (
      await t.app.inject({
        method: 'GET',
        url: '/api/auth/identities',
        headers: { authorization: `Bearer ${token}` },
      })
    ).json().identities;
  const reauth = (token: string, password: unknown) => t.api.post('/reauth', { password }, token);

  it('refuses to connect a provider from a session whose password is more than 5 minutes old, until it is confirmed', async () => {
    const { who, token, session } = await signedUp();
    await provedAgo(session, 4);
    expect((await startConnect(token)).statusCode).toBe(200);

    await provedAgo(session, 6);
    const refused = await startConnect(token);
    expect([refused.statusCode, refused.json()]).toEqual([
      403,
      { error: 'Enter your password to connect Testidp', reauth: 'password' },
    ]);
    expect(refused.cookies.find((c) => c.name === 'hearth_oidc_state')).toBeUndefined();

    const wrong = await reauth(token, 'not the password');
    expect([wrong.statusCode, wrong.json()]).toEqual([400, { error: 'Current password is incorrect' }]);
    expect((await reauth(token, '')).json()).toEqual({ error: 'Password is required' });
    expect((await startConnect(token)).statusCode).toBe(403);

    const confirmed = await reauth(token, who.password);
    expect([confirmed.statusCode, confirmed.json()]).toEqual([200, { message: 'Password confirmed' }]);
    people.set('sub-fresh', { email: 'fresh.elsewhere@example.com', email_verified: true });
    await connect(token, 'sub-fresh');
    expect(await identitiesOf(token)).toEqual([
      expect.objectContaining({ provider: PROVIDER, email: 'fresh.elsewhere@example.com' }),
    ]);
    // Signed out, nobody confirms a password.
    expect((await t.api.post('/reauth', { password: who.password })).statusCode).toBe(401);
  });

  it('counts a sign-in with the provider as fresh for an account without a password, then asks to sign in again', async () => {
    people.set('sub-nopassword', { email: 'nopassword@example.com', email_verified: true });
    const signedIn = await signIn('sub-nopassword');
    const { access_token: token } = (
      await t.app.inject({
        method: 'POST',
        url: '/api/auth/refresh',
        payload: { refresh_token: signedIn.get('refresh_token') },
      })
    ).json();
    // Fresh: the connect may start (this provider account is the one already linked, so the
    // callback would answer email_conflict; the start is what is checked).
    expect((await startConnect(token)).statusCode).toBe(200);
    await provedAgo(decodeJwt(token).sid as string, 6);
    const refused = await startConnect(token);
    expect([refused.statusCode, refused.json()]).toEqual([
      403,
      { error: 'Sign in again to connect Testidp', reauth: 'sign_in' },
    ]);
    expect((await reauth(token, 'anything at all')).statusCode).toBe(400);
    expect((await startConnect(token)).statusCode).toBe(403);
  });

  /** A person with a provider connected from Settings, and their password reset with the mailed code. */
  async function connectedThenReset(sub: string, extra: Record<string, unknown> = {}) {
    const { who, token } = await signedUp();
    people.set(sub, { email: `${sub}.elsewhere@example.com`, email_verified: true });
    await connect(token, sub);
    const after = t.mail.mark();
    await t.api.post('/password/reset/request', { email: who.email });
    const code = await t.mail.code(who.email, SUBJECTS.passwordReset, { after });
    const body = { email: who.email, code, new_password: 'the password after the reset' };
    expect((await t.api.post('/password/reset/confirm', { ...body, keep_providers: 'yes' })).json()).toEqual({
      error: 'keep_providers must be true or false',
    });
    const reset = await t.api.post('/password/reset/confirm', { ...body, ...extra });
    expect(reset.statusCode).toBe(200);
    const { access_token: fresh } = await t.api.login({ email: who.email, password: body.new_password });
    return { who, after, fresh };
  }

  it('disconnects the providers at a password reset and mails the owner which', async () => {
    const { who, after, fresh } = await connectedThenReset('sub-reset');
    expect(await identitiesOf(fresh)).toEqual([]);
    const notice = await t.mail.next(who.email, /password was reset/, { after });
    expect(notice.raw).toContain('Testidp was disconnected');
    // The provider account no longer opens the owner's account.
    const viaProvider = await signIn('sub-reset');
    expect((await me(viaProvider.get('access_token') as string))?.email).not.toBe(who.email);
  });

  it('keeps the providers at a password reset when asked to, without a notice', async () => {
    const { who, after, fresh } = await connectedThenReset('sub-kept', { keep_providers: true });
    expect(await identitiesOf(fresh)).toEqual([expect.objectContaining({ provider: PROVIDER })]);
    const viaProvider = await signIn('sub-kept');
    expect((await me(viaProvider.get('access_token') as string))?.email).toBe(who.email);
    expect(t.mail.mails.slice(after).filter((mail) => /password was reset/.test(mail.subject))).toEqual([]);
  });

  it('keeps the providers at a password change: the person is signed in, beside the list that disconnects them', async () => {
    const { who, token } = await signedUp();
    people.set('sub-change', { email: 'change.elsewhere@example.com', email_verified: true });
    await connect(token, 'sub-change');
    const changed = await t.api.post(
      '/password/change',
      { current_password: who.password, new_password: 'a changed password here' },
      token,
    );
    expect(changed.statusCode).toBe(200);
    expect(await identitiesOf(changed.json().access_token)).toHaveLength(1);
  });

  /**
   * Another instance, configured otherwise, on a database of its own: instances on one database
   * share the per-address counting windows of AUTH_RATE_LIMIT, which the suite above has used.
   */
  async function otherInstance(env: Record<string, string>, check: (other: TestApp) => Promise<void>) {
    const own = await create();
    const other = await startTestApp(own, env);
    try {
      await check(other);
    } finally {
      await other.close();
      await own.drop();
    }
  }

  it('answers oauth_failed when the provider cannot be reached, and keeps serving', () =>
    otherInstance({ ...oidcEnv(), OIDC_ISSUER: 'http://127.0.0.1:9' }, async (down) => {
      const login = await down.app.inject({ method: 'GET', url: `/api/auth/oauth/${PROVIDER}/login` });
      expect(login.statusCode).toBe(302);
      expect(login.headers.location).toBe('/?error=oauth_failed');
      const providers = await down.app.inject({ method: 'GET', url: '/api/auth/oauth/providers' });
      expect(providers.statusCode).toBe(200);
    }));

  it('limits sign-in starts per client address like the other unauthenticated auth calls', () =>
    otherInstance({ ...oidcEnv(), AUTH_RATE_LIMIT: '3' }, async (strict) => {
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++) {
        statuses.push(
          (await strict.app.inject({ method: 'GET', url: `/api/auth/oauth/${PROVIDER}/login` })).statusCode,
        );
      }
      expect(statuses).toEqual([302, 302, 302, 429]);
    }));

  it('offers no provider and 404s every provider when OIDC is not configured', () =>
    otherInstance({}, async (plain) => {
      expect((await plain.app.inject({ method: 'GET', url: '/api/auth/oauth/providers' })).json()).toEqual({
        providers: [],
      });
      const login = await plain.app.inject({ method: 'GET', url: `/api/auth/oauth/${PROVIDER}/login` });
      expect(login.statusCode).toBe(404);
    }));
});

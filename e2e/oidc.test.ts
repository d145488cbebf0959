import type { Server } from 'node:http';
import path from 'node:path';
import Database from 'better-sqlite3';
import Provider from 'oidc-provider';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SUBJECTS } from '../server/test/mail-catcher.js';
import { freePort } from './support/server.js';
import { type Account, apiCall, logIn, openSignedIn, SettingsPage, signUp } from './support/settings.page.js';
import { useE2e } from './support/suite.js';

const CLIENT_ID = 'hearth-e2e';
const CLIENT_SECRET = 'e2e-client-secret-0123456789';

/** A real OpenID provider (oidc-provider) with its development login and consent screens. */
async function startOpenIdProvider(redirectUri: string) {
  const port = await freePort();
  const issuer = `http://localhost:${port}`;
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: CLIENT_ID,
        client_secret: CLIENT_SECRET,
        redirect_uris: [redirectUri],
        response_types: ['code'],
        grant_types: ['authorization_code'],
      },
    ],
    cookies: { keys: ['e2e-cookie-signing-key'] },
    claims: {
      openid: ['sub'],
      email: ['email', 'email_verified'],
      profile: ['name', 'given_name', 'family_name', 'preferred_username'],
    },
    findAccount: async (_ctx, sub) => ({
      accountId: sub,
      claims: async () => ({
        sub,
        email: `${sub}@example.com`,
        email_verified: true,
        given_name: 'Olive',
        family_name: 'Openid',
        name: 'Olive Openid',
        preferred_username: sub,
      }),
    }),
  });
  const server: Server = await new Promise((resolve) => {
    const listening = provider.listen(port, () => resolve(listening));
  });
  return { issuer, stop: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

describe('sign-in through an OpenID provider in Chromium', () => {
  let port: number;
  let idp: Awaited<ReturnType<typeof startOpenIdProvider>>;
  // Registered before the fixture: the provider starts before Hearth and stops after it.
  beforeAll(async () => {
    port = await freePort();
    idp = await startOpenIdProvider(`http://localhost:${port}/api/auth/oauth/testidp/callback`);
  });
  afterAll(async () => {
    await idp?.stop();
  });
  const suite = useE2e({
    mail: true,
    env: () => ({
      PORT: String(port),
      OIDC_ISSUER: idp.issuer,
      OIDC_CLIENT_ID: CLIENT_ID,
      OIDC_CLIENT_SECRET: CLIENT_SECRET,
      OIDC_PROVIDER: 'testidp',
    }),
  });

  it('signs in with "Continue with …", spends the returned refresh token and cleans the address', async () => {
    const page = await suite.browser.newPage();
    const refreshBodies: string[] = [];
    page.on('request', (request) => {
      if (request.url().endsWith('/api/auth/refresh')) refreshBodies.push(request.postData() ?? '');
    });
    await page.goto(suite.server.url);
    await page.getByRole('button', { name: 'Log in', exact: true }).click();
    await page.getByRole('button', { name: 'Continue with Testidp' }).click();

    // The provider's own development screens: any login, then consent.
    await page.waitForURL(new RegExp(`^${idp.issuer}/interaction/`));
    await page.locator('input[name=login]').fill('olive');
    await page.locator('input[name=password]').fill('anything');
    await page.locator('button[type=submit]').click();
    await page.locator('button[type=submit]', { hasText: /continue/i }).click();

    await page.waitForURL(`${suite.server.url}/`);
    await page.getByRole('heading', { name: 'Welcome back, Olive!👋' }).waitFor();
    expect(page.url()).toBe(`${suite.server.url}/`);
    expect(refreshBodies).toHaveLength(1);

    // The refresh token that travelled in the URL has been spent: it no longer refreshes. The new
    // one is read first: replaying a spent token ends the whole session (reuse is taken as theft),
    // so the page's next call after the replay signs it out.
    const spent = JSON.parse(refreshBodies[0] ?? '{}').refresh_token as string;
    const stored = await page.evaluate(() => localStorage.getItem('refreshToken'));
    expect(stored).toBeTruthy();
    expect(stored).not.toBe(spent);
    const again = await fetch(`${suite.server.url}/api/auth/refresh`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ refresh_token: spent }),
    });
    expect(again.status).toBe(401);
  });

  it('logs a provider error as its message and removes it from the address', async () => {
    const page = await suite.browser.newPage();
    const logged: string[] = [];
    page.on('console', (message) => logged.push(message.text()));
    await page.goto(`${suite.server.url}/map?error=oauth_cancelled`);
    await page.waitForURL(`${suite.server.url}/map`);
    await expect.poll(() => logged).toContain('Testidp login was cancelled');
    expect(await page.getByRole('heading', { level: 1 }).textContent()).not.toContain('cancelled');
  });

  /** The provider's own development screens: any login, then consent. */
  async function atTheProvider(page: Page, login: string) {
    await page.waitForURL(new RegExp(`^${idp.issuer}/interaction/`));
    await page.locator('input[name=login]').fill(login);
    await page.locator('input[name=password]').fill('anything');
    await page.locator('button[type=submit]').click();
    await page.locator('button[type=submit]', { hasText: /continue/i }).click();
  }
  const identitiesOf = async (account: Account, password = account.password) => {
    const { accessToken } = await logIn(suite.server.url, account.email, password);
    const { data } = await apiCall<{ identities: { provider: string }[] }>(
      suite.server.url,
      'GET',
      '/api/auth/identities',
      undefined,
      accessToken,
    );
    return data.identities.map((identity) => identity.provider);
  };
  /**
   * Stands in for the clock: the person's sessions signed in `minutes` ago (the server keeps the
   * time of the last sign-in in its SQLite database, in DATA_DIR).
   */
  function signedInAgo(account: Account, minutes: number) {
    const database = new Database(path.join(suite.server.dataDir, 'hearth.db'));
    try {
      database.pragma('busy_timeout = 5000');
      database
        .prepare('update auth_sessions set authenticated_at = ? where user_id = ?')
        .run(new Date(Date.now() - minutes * 60_000).toISOString(), account.id);
    } finally {
      database.close();
    }
  }

  // Issue 32 item 12: linking a provider needs the password within the last 5 minutes, and a
  // password reset disconnects providers unless asked to keep them.
  let grace: Account;

  it('asks for the password before "Connect Testidp" once the sign-in is 5 minutes old, then connects', async () => {
    grace = await signUp(suite.server.url, { first_name: 'Grace', last_name: 'Hopper', user_name: 'grace' });
    const { page } = await openSignedIn(suite.browser, suite.server.url, grace);
    signedInAgo(grace, 6);
    const settings = new SettingsPage(page, grace.user_name);
    await settings.open();
    await settings.button('Connect Testidp').click();

    const confirm = page.getByRole('dialog', { name: 'Confirm your password' });
    await confirm.getByText('Enter your password to connect Testidp').waitFor();
    await confirm.getByLabel('Password', { exact: true }).fill('not her password');
    await confirm.getByRole('button', { name: 'Confirm' }).click();
    await confirm.getByRole('alert').filter({ hasText: 'Current password is incorrect' }).waitFor();
    await confirm.getByLabel('Password', { exact: true }).fill(grace.password);
    await confirm.getByRole('button', { name: 'Confirm' }).click();

    await atTheProvider(page, 'grace-at-the-provider');
    await page.waitForURL(`${suite.server.url}/`);
    await page.locator('.toast', { hasText: 'Testidp connected' }).waitFor();
    expect(await identitiesOf(grace)).toEqual(['testidp']);
    await page.context().close();
  });

  it('disconnects Testidp at a password reset unless "Keep Testidp connected" is ticked, and mails why', async () => {
    const page = await suite.page();
    await page.goto(suite.server.url);
    await page.getByRole('button', { name: 'Log in', exact: true }).click();
    await page.getByRole('button', { name: 'Forgot password?' }).click();
    const forgot = page.getByRole('dialog', { name: 'Forgot Password' });
    await forgot.getByLabel('Email').fill(grace.email);
    const mark = suite.mail.mark();
    await forgot.getByRole('button', { name: 'Send Code' }).click();
    const reset = page.getByRole('dialog', { name: 'Reset Password' });
    const code = await suite.mail.code(grace.email, SUBJECTS.passwordReset, { after: mark });
    await reset.getByLabel('Verification Code').fill(code);
    await reset.getByLabel('New Password').fill('Grace-after-the-reset-7');
    await reset.getByLabel('Confirm Password').fill('Grace-after-the-reset-7');
    const keep = reset.getByRole('checkbox', { name: 'Keep Testidp connected' });
    expect(await keep.isChecked()).toBe(false);
    await reset.getByRole('button', { name: 'Reset Password' }).click();
    await page.locator('.toast', { hasText: 'Password reset successful!' }).waitFor();

    expect(await identitiesOf(grace, 'Grace-after-the-reset-7')).toEqual([]);
    const notice = await suite.mail.next(grace.email, /password was reset/, { after: mark });
    expect(notice.raw).toContain('Testidp was disconnected');
  });
});

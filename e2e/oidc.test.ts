import type { Server } from 'node:http';
import Provider from 'oidc-provider';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from './support/server.js';
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
});

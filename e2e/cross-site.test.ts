import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumPath } from './support/browser.js';
import {
  type Account,
  ADA,
  apiCall,
  gotoWithToken,
  logIn,
  SettingsPage,
  signUp,
} from './support/settings.page.js';
import { useE2e } from './support/suite.js';

const REFUSED = { error: 'Request refused: it did not come from Hearth’s own page' };

/** Another page on the same host, another port: the attacker at http://<hearth-host>:18999. */
async function startOtherPage() {
  const server = http.createServer((_request, response) => {
    response.setHeader('content-type', 'text/html');
    response.end('<!doctype html><title>Somewhere else</title><p>Somewhere else</p>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** What a page at another origin can do with the victim's cookie, as in issue 32 item 11. */
const attack = (page: Page, hearth: string) =>
  page.evaluate(async (base) => {
    const send = (path: string) =>
      fetch(`${base}${path}`, { method: 'POST', mode: 'no-cors', credentials: 'include' }).then(
        () => 'sent',
        () => 'failed',
      );
    await send('/api/auth/sessions/revoke-others');
    await send('/api/auth/profile/generate-avatar');
    // Cross-site WebSocket hijacking: the upgrade is a GET that carries the cookie too.
    return new Promise<string>((resolve) => {
      const socket = new WebSocket(`${base.replace(/^http/, 'ws')}/ws/devicehub`, 'mqtt');
      socket.onopen = () => {
        socket.close();
        resolve('open');
      };
      socket.onerror = () => resolve('refused');
    });
  }, hearth);

/** The same calls from Hearth's own page, signed in only by the cookie (no Authorization header). */
const fromHearthPage = (page: Page) =>
  page.evaluate(async () => {
    const revoke = await fetch('/api/auth/sessions/revoke-others', {
      method: 'POST',
      credentials: 'same-origin',
    });
    const stream = await new Promise<string>((resolve) => {
      const socket = new WebSocket(`${location.origin.replace(/^http/, 'ws')}/ws/devicehub`, 'mqtt');
      socket.onopen = () => {
        socket.close();
        resolve('open');
      };
      socket.onerror = () => resolve('refused');
    });
    return { revoke: revoke.status, body: await revoke.json(), stream };
  });

/** Opens Hearth at `base` (any address that reaches it) signed in as `account`. */
async function openHearth(page: Page, api: string, base: string, account: Account) {
  const { refreshToken } = await logIn(api, account.email, account.password);
  await gotoWithToken(page, base, refreshToken);
  await page.getByRole('button', { name: `Account menu for ${account.user_name}` }).waitFor();
}

/**
 * The headers Chromium put on the wire for each POST to revoke-others (Cookie and Sec-Fetch-*
 * included), read through the DevTools protocol: Playwright's request events show only the
 * provisional headers of a no-cors request.
 */
async function recordRevokes(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  const revokes: string[] = [];
  const onWire = new Map<string, Record<string, string>>();
  cdp.on('Network.requestWillBeSent', ({ requestId, request }) => {
    if (request.method === 'POST' && request.url.endsWith('/api/auth/sessions/revoke-others')) {
      revokes.push(requestId);
    }
  });
  cdp.on('Network.requestWillBeSentExtraInfo', ({ requestId, headers }) => {
    onWire.set(requestId, Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v])));
  });
  /** Each revoke's headers, once Chromium has reported them. */
  return async () => {
    await expect.poll(() => revokes.length > 0 && revokes.every((id) => onWire.has(id))).toBe(true);
    return revokes.map((id) => onWire.get(id) ?? {});
  };
}

describe('the auth cookie outside Hearth’s own page (Chromium)', () => {
  const suite = useE2e({ env: { SIMULATOR: 'off' } });
  let other: Awaited<ReturnType<typeof startOtherPage>>;
  let ada: Account;
  let hearthHost: Browser;
  beforeAll(async () => {
    other = await startOtherPage();
    ada = await signUp(suite.server.url, ADA);
    // A name that is no "potentially trustworthy" address, as a LAN name or plain-http address
    // is: Chromium sends no Sec-Fetch-Site to it, only Origin.
    hearthHost = await chromium.launch({
      executablePath: chromiumPath,
      headless: true,
      args: ['--no-sandbox', '--disable-gpu', '--host-resolver-rules=MAP hearth.test 127.0.0.1'],
    });
  });
  afterAll(async () => {
    await hearthHost?.close();
    await other?.stop();
  });

  const stillSignedIn = async (accessToken: string) =>
    (await apiCall(suite.server.url, 'GET', '/api/auth/me', undefined, accessToken)).status;
  const picture = async () =>
    (
      await apiCall<{ profile_picture_url: string | null }>(
        suite.server.url,
        'GET',
        '/api/auth/me',
        undefined,
        (
          await logIn(suite.server.url, ada.email, ada.password)
        ).accessToken,
      )
    ).data.profile_picture_url;

  it('refuses a page on another port of the same host: the other sessions and the picture stay, the stream stays shut', async () => {
    const page = await suite.page();
    await openHearth(page, suite.server.url, suite.server.url, ada);
    const second = await logIn(suite.server.url, ada.email, ada.password);
    const before = await picture();

    await page.goto(`http://localhost:${other.port}/`);
    expect((await page.context().cookies(suite.server.url)).map((cookie) => cookie.name)).toContain(
      'auth_token',
    );
    const headers = await recordRevokes(page);
    expect(await attack(page, suite.server.url)).toBe('refused');
    const sent = await headers();
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({
      'sec-fetch-site': 'same-site',
      cookie: expect.stringContaining('auth_token='),
    });

    expect(await stillSignedIn(second.accessToken)).toBe(200);
    expect(await picture()).toBe(before);
    // The refusal, as a page that could read it would see it.
    const refused = await fetch(`${suite.server.url}/api/auth/sessions/revoke-others`, {
      method: 'POST',
      headers: { cookie: sent[0]?.cookie ?? '', 'sec-fetch-site': 'same-site' },
    });
    expect([refused.status, await refused.json()]).toEqual([403, REFUSED]);
  });

  it('lets Hearth’s own page sign in by the cookie alone, and its Settings sign the other sessions out', async () => {
    const page = await suite.page();
    await openHearth(page, suite.server.url, suite.server.url, ada);
    const headers = await recordRevokes(page);
    const second = await logIn(suite.server.url, ada.email, ada.password);
    expect(await fromHearthPage(page)).toEqual({
      revoke: 200,
      body: { message: 'Signed out of all other sessions' },
      stream: 'open',
    });
    const sent = await headers();
    expect(sent[0]).toMatchObject({ 'sec-fetch-site': 'same-origin' });
    expect(sent[0]?.authorization).toBeUndefined();
    expect(await stillSignedIn(second.accessToken)).toBe(401);

    // The app's own button (Bearer, and the cookie beside it).
    const third = await logIn(suite.server.url, ada.email, ada.password);
    const settings = new SettingsPage(page, ada.user_name);
    await settings.open();
    await settings.button('Sign out of all other sessions').click();
    await settings.expectStatus('Signed out of all other sessions');
    expect(await stillSignedIn(third.accessToken)).toBe(401);
  });

  it('works through another address than PUBLIC_URL, judged by Origin where Chromium sends no Sec-Fetch-Site', async () => {
    const page = await (await hearthHost.newContext()).newPage();
    try {
      const hearth = `http://hearth.test:${suite.server.port}`;
      await openHearth(page, suite.server.url, hearth, ada);
      const headers = await recordRevokes(page);
      const second = await logIn(suite.server.url, ada.email, ada.password);
      expect(await fromHearthPage(page)).toMatchObject({ revoke: 200, stream: 'open' });
      const sent = await headers();
      expect(sent[0]?.['sec-fetch-site']).toBeUndefined();
      expect(sent[0]?.origin).toBe(hearth);
      expect(await stillSignedIn(second.accessToken)).toBe(401);

      // Another port of that host: its Origin is neither PUBLIC_URL nor the address used.
      const third = await logIn(suite.server.url, ada.email, ada.password);
      await page.goto(`http://hearth.test:${other.port}/`);
      const attemptHeaders = await recordRevokes(page);
      expect(await attack(page, hearth)).toBe('refused');
      const attempts = await attemptHeaders();
      expect(attempts).toHaveLength(1);
      expect(attempts[0]).toMatchObject({ origin: `http://hearth.test:${other.port}` });
      expect(attempts[0]?.['sec-fetch-site']).toBeUndefined();
      expect(await stillSignedIn(third.accessToken)).toBe(200);
    } finally {
      await page.context().close();
    }
  });
});

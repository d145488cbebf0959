import { decodeJwt } from 'jose';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../test/app.js';
import { testDatabases } from '../../test/databases.js';
import { MESSAGES } from './accounts.errors.js';

const PUBLIC_URL = 'https://hearth.example';

/**
 * Issue 32 item 11: SameSite=Strict does not tell another port of the same host, or a sibling
 * subdomain, from Hearth's own page. A state-changing call signed in by the auth_token cookie
 * alone must come from Hearth's own origin (Sec-Fetch-Site, else Origin); Bearer calls are
 * unaffected.
 */
describe.each(testDatabases())('cookie-authenticated calls from other pages on $name', ({ create }) => {
  const t = useTestApp({ database: create, env: { PUBLIC_URL } });

  /** A user signed in twice: `here` is the browser whose cookie is used, `other` a second device. */
  async function signedInTwice() {
    const user = await t.user('resident');
    const here = await t.hearth.sessions.issue(user);
    const other = await t.hearth.sessions.issue(user);
    return { user, here, other };
  }
  const revokeOthers = (cookie: string, headers: Record<string, string>) =>
    t.app.inject({
      method: 'POST',
      url: '/api/auth/sessions/revoke-others',
      cookies: { auth_token: cookie },
      headers,
    });
  const stillSignedIn = async (accessToken: string) =>
    (
      await t.app.inject({
        method: 'GET',
        url: '/api/auth/me',
        headers: { authorization: `Bearer ${accessToken}` },
      })
    ).statusCode;

  it('refuses revoke-others sent with the cookie from another port or site, and the other sessions survive', async () => {
    const { here, other } = await signedInTwice();
    // The issue's attack: fetch(…, {method: 'POST', mode: 'no-cors', credentials: 'include'}) from
    // http://<hearth-host>:18999, which Chromium marks same-site, with the page's Origin.
    for (const headers of <Record<string, string>[]>[
      { 'sec-fetch-site': 'same-site', 'sec-fetch-mode': 'no-cors', origin: 'https://hearth.example:18999' },
      { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'no-cors', origin: 'https://evil.example' },
      { 'sec-fetch-site': 'none' },
      // Without Sec-Fetch-Site (plain http outside localhost, older browsers): the Origin decides.
      { origin: 'https://hearth.example:18999' },
      { origin: 'https://sub.hearth.example' },
      { origin: 'null' },
      // Neither header: not a page of Hearth's (curl with a copied cookie uses Bearer instead).
      {},
    ]) {
      const refused = await revokeOthers(here.access_token, headers);
      expect([refused.statusCode, refused.json()], JSON.stringify(headers)).toEqual([
        403,
        { error: MESSAGES.notFromHearth },
      ]);
    }
    expect(await stillSignedIn(other.access_token)).toBe(200);
  });

  it('lets Hearth’s own page use the cookie: Sec-Fetch-Site same-origin, or its Origin', async () => {
    const bySecFetch = await signedInTwice();
    const sameOrigin = await revokeOthers(bySecFetch.here.access_token, {
      'sec-fetch-site': 'same-origin',
      // Sec-Fetch-Site is the browser's own verdict: it wins over an Origin other than PUBLIC_URL.
      origin: 'http://192.168.1.20:8080',
    });
    expect([sameOrigin.statusCode, sameOrigin.json()]).toEqual([
      200,
      { message: 'Signed out of all other sessions' },
    ]);
    expect(await stillSignedIn(bySecFetch.other.access_token)).toBe(401);

    const byPublicUrl = await signedInTwice();
    expect((await revokeOthers(byPublicUrl.here.access_token, { origin: PUBLIC_URL })).statusCode).toBe(200);
    expect(await stillSignedIn(byPublicUrl.other.access_token)).toBe(401);

    // A browser that reached Hearth by another address than PUBLIC_URL (its LAN address) sends
    // that address as Origin and as Host.
    const byOwnAddress = await signedInTwice();
    const own = await revokeOthers(byOwnAddress.here.access_token, {
      origin: 'http://192.168.1.20:8080',
      host: '192.168.1.20:8080',
    });
    expect(own.statusCode).toBe(200);
    expect(await stillSignedIn(byOwnAddress.other.access_token)).toBe(401);
  });

  it('leaves Bearer calls and reading calls alone', async () => {
    const { here, other } = await signedInTwice();
    const read = await t.app.inject({
      method: 'GET',
      url: '/api/auth/sessions',
      cookies: { auth_token: here.access_token },
      headers: { 'sec-fetch-site': 'same-site' },
    });
    expect(read.statusCode).toBe(200);
    const bearer = await t.app.inject({
      method: 'POST',
      url: '/api/auth/sessions/revoke-others',
      headers: { authorization: `Bearer ${here.access_token}`, 'sec-fetch-site': 'cross-site' },
    });
    expect(bearer.statusCode).toBe(200);
    expect(await stillSignedIn(other.access_token)).toBe(401);
  });

  it('refuses the other state-changing calls the issue names: a generated avatar, a session sign-out', async () => {
    const { user, here, other } = await signedInTwice();
    const avatar = await t.app.inject({
      method: 'POST',
      url: '/api/auth/profile/generate-avatar',
      cookies: { auth_token: here.access_token },
      headers: { 'sec-fetch-site': 'same-site' },
    });
    expect([avatar.statusCode, avatar.json()]).toEqual([403, { error: MESSAGES.notFromHearth }]);
    expect((await t.hearth.users.findById(user.id))?.profilePicture).toBeNull();

    const sessions = await t.call(user, 'GET', '/api/auth/sessions');
    const otherSession = sessions.body.sessions.find(
      (session: { id: string }) => session.id === decodeJwt(other.access_token).sid,
    );
    const signOut = await t.app.inject({
      method: 'DELETE',
      url: `/api/auth/sessions/${otherSession.id}`,
      cookies: { auth_token: here.access_token },
      headers: { 'sec-fetch-site': 'same-site' },
    });
    expect(signOut.statusCode).toBe(403);
    expect(await stillSignedIn(other.access_token)).toBe(200);
  });
});

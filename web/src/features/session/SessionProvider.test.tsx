import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { startBootRequests, tokenRole } from '../../app/boot-requests.js';
import { DevicesPage } from '../../app/pages.js';
import { startOAuthNonce } from '../../shared/session/oauth-nonce.js';
import { useSession } from '../../shared/session/session-context.js';
import { getAccessToken, REFRESH_TOKEN_KEY, setAccessToken } from '../../shared/session/token-store.js';
import { ToastProvider } from '../../shared/toast/ToastProvider.js';
import { fetchDevicesByIds } from '../devices/api/devices.api.js';
import { HomeLive } from '../home/home-live.lazy.js';
import { REFRESH_INTERVAL_MS, SessionProvider } from './SessionProvider.js';

function Probe() {
  const { user, loading, logout } = useSession();
  return (
    <div>
      <p>{loading ? 'loading' : (user?.user_name ?? 'signed out')}</p>
      <button type="button" onClick={() => void logout()}>
        logout
      </button>
    </div>
  );
}

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status });

describe('SessionProvider (docs/screens.md#session, docs/screens.md#token-refresh)', () => {
  let calls: { path: string; body: unknown }[];
  let serial: number;

  beforeEach(() => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    localStorage.clear();
    setAccessToken(null);
    calls = [];
    serial = 0;
    vi.stubGlobal('fetch', async (input: URL, init: RequestInit) => {
      const path = new URL(String(input)).pathname;
      calls.push({ path, body: init.body ? JSON.parse(String(init.body)) : undefined });
      if (path === '/api/auth/refresh') {
        serial += 1;
        return json(200, { access_token: `a${serial}`, refresh_token: `r${serial}` });
      }
      if (path === '/api/auth/me') return json(200, { id: '1', user_name: 'ada', role: 'admin' });
      return json(200, {});
    });
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
    vi.useRealTimers();
    window.history.replaceState(null, '', '/');
  });

  const mount = () =>
    render(
      <ToastProvider>
        <SessionProvider>
          <Probe />
        </SessionProvider>
      </ToastProvider>,
    );

  it('restores the session from the stored refresh token, and refreshes every 13 minutes', async () => {
    localStorage.setItem(REFRESH_TOKEN_KEY, 'r0');
    mount();
    await screen.findByText('ada');
    expect(calls.map((c) => c.path)).toEqual(['/api/auth/refresh', '/api/auth/me']);
    expect(calls[0]?.body).toEqual({ refresh_token: 'r0' });
    expect(getAccessToken()).toBe('a1');
    await act(async () => {}); // let the signed-in effects start their timer

    await act(async () => vi.advanceTimersByTime(REFRESH_INTERVAL_MS - 1000));
    expect(calls.filter((c) => c.path === '/api/auth/refresh')).toHaveLength(1);
    await act(async () => vi.advanceTimersByTime(2000));
    expect(calls.filter((c) => c.path === '/api/auth/refresh')).toHaveLength(2);
    expect(localStorage.getItem(REFRESH_TOKEN_KEY)).toBe('r2');
  });

  it("takes the session the boot restored before React ran: one refresh, one profile, and the page's first requests beside it", async () => {
    localStorage.setItem(REFRESH_TOKEN_KEY, 'r0');
    window.history.replaceState(null, '', '/devices');
    const code = vi.spyOn(DevicesPage, 'preload').mockResolvedValue(() => null);
    startBootRequests(window.location);
    // The page's code starts at once, through the page's own loadable (it then draws at once).
    await vi.waitFor(() => expect(code).toHaveBeenCalledTimes(1));
    await vi.waitFor(() => expect(calls.map((c) => c.path)).toContain('/api/auth/me'));
    expect(getAccessToken()).toBe('a1');
    mount();
    await screen.findByText('ada');
    expect(calls.map((c) => c.path).sort()).toEqual(
      ['/api/auth/refresh', '/api/auth/me', '/api/devicehub/devices', '/api/rooms', '/api/config'].sort(),
    );
  });

  it('draws signed in from the first render when the boot already has the profile, and asks for nothing more', async () => {
    localStorage.setItem(REFRESH_TOKEN_KEY, 'r0');
    window.history.replaceState(null, '', '/settings');
    await startBootRequests(window.location);
    await vi.waitFor(() => expect(calls.map((c) => c.path)).toContain('/api/auth/me'));
    await act(async () => {}); // the profile's answer arrives
    mount();
    // No render without the user first: the very first one shows them.
    expect(screen.getByText('ada')).toBeTruthy();
    await act(async () => {});
    expect(screen.getByText('ada')).toBeTruthy();
    expect(calls.map((c) => c.path)).toEqual(['/api/auth/refresh', '/api/auth/me']);
  });

  /** An access token shaped like the server's (header.claims.signature, base64url). */
  const jwt = (claims: object) =>
    `eyJhbGciOiJIUzI1NiJ9.${btoa(JSON.stringify(claims)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')}.sig`;

  /** Home's boot for an account of this role: what was fetched (path and query) and whether home's live code started. */
  async function homeBoot(role: string) {
    localStorage.setItem(REFRESH_TOKEN_KEY, 'r0');
    window.history.replaceState(null, '', '/');
    const asked: string[] = [];
    let answerProfile: (response: Response) => void = () => {};
    vi.stubGlobal('fetch', async (input: URL) => {
      const url = new URL(String(input));
      asked.push(url.pathname + url.search);
      if (url.pathname === '/api/auth/refresh')
        return json(200, { access_token: jwt({ sub: '1', role, sid: 's' }), refresh_token: 'r1' });
      // The profile answers late: what the boot starts before it is the token's doing.
      if (url.pathname === '/api/auth/me')
        return new Promise<Response>((resolve) => (answerProfile = resolve));
      if (url.pathname === '/api/favourites') return json(200, { device_ids: ['lamp', 'ä/b'] });
      if (url.pathname === '/api/devicehub/devices') return json(200, [{ id: 'lamp', name: 'Lamp' }]);
      return json(200, {});
    });
    const code = vi.spyOn(HomeLive, 'preload').mockResolvedValue(() => null);
    await startBootRequests(window.location);
    await act(async () => {});
    const before = { asked: [...asked], code: code.mock.calls.length };
    answerProfile(json(200, { id: '1', user_name: 'ada', role }));
    return { before, asked };
  }

  it("starts a resident's home from the token's role: the live part's code and the favourites' devices before the profile answers", async () => {
    const { before, asked } = await homeBoot('resident');
    expect(before.code).toBe(1);
    const byIds = `/api/devicehub/devices?ids=lamp,${encodeURIComponent('ä/b')}`;
    expect(before.asked).toContain(byIds);
    // The cards' request takes that answer: the server is asked once.
    expect(await fetchDevicesByIds(['lamp', 'ä/b'])).toEqual({
      ok: true,
      devices: [{ id: 'lamp', name: 'Lamp' }],
    });
    expect(asked.filter((path) => path === byIds)).toHaveLength(1);
  });

  it("fetches neither home's live code nor any device for a `user`", async () => {
    const { before, asked } = await homeBoot('user');
    await act(async () => {});
    expect(before.code).toBe(0);
    expect(asked.some((path) => path.startsWith('/api/devicehub/devices'))).toBe(false);
  });

  it("reads the role from the token's claims (base64url), and none from a token that has none", () => {
    expect(tokenRole(jwt({ role: 'admin', name: '>>>???' }))).toBe('admin');
    expect(tokenRole('not-a-jwt')).toBeNull();
    expect(tokenRole(jwt({ sub: '1' }))).toBeNull();
  });

  it('leaves an identity-provider return to the provider: the boot asks nothing', async () => {
    localStorage.setItem(REFRESH_TOKEN_KEY, 'r0');
    window.history.replaceState(null, '', '/?refresh_token=r9&nonce=n1');
    startBootRequests(window.location);
    await act(async () => {});
    expect(calls).toEqual([]);
  });

  it('stays signed out without a refresh token, making no call', async () => {
    startBootRequests(window.location);
    mount();
    await screen.findByText('signed out');
    expect(calls).toEqual([]);
  });

  it('takes the identity-provider return: spends the refresh token at once and cleans the address', async () => {
    const nonce = startOAuthNonce();
    window.history.replaceState(
      null,
      '',
      `/devices?access_token=url-a&refresh_token=url-r&nonce=${nonce}&keep=1`,
    );
    mount();
    await screen.findByText('ada');
    expect(window.location.pathname + window.location.search).toBe('/devices?keep=1');
    expect(calls[0]).toEqual({ path: '/api/auth/refresh', body: { refresh_token: 'url-r' } });
    expect(localStorage.getItem(REFRESH_TOKEN_KEY)).toBe('r1');
  });

  // Issue 11 item 8 (login CSRF): a link with someone else's tokens must not sign this browser in.
  it.each([
    ['without a nonce', '/?access_token=evil-a&refresh_token=evil-r&keep=1'],
    [
      'with a nonce this tab did not start',
      '/?access_token=evil-a&refresh_token=evil-r&nonce=forged-nonce-1234567&keep=1',
    ],
  ])('drops tokens in the address %s, and still cleans it', async (_, address) => {
    window.history.replaceState(null, '', address);
    mount();
    await screen.findByText('signed out');
    expect(window.location.pathname + window.location.search).toBe('/?keep=1');
    expect(calls).toEqual([]);
    expect(localStorage.getItem(REFRESH_TOKEN_KEY)).toBeNull();
  });

  it('logs out: server logout with the refresh token, then everything cleared', async () => {
    localStorage.setItem(REFRESH_TOKEN_KEY, 'r0');
    mount();
    await screen.findByText('ada');
    await act(async () => screen.getByRole('button', { name: 'logout' }).click());
    await screen.findByText('signed out');
    expect(calls.at(-1)).toEqual({ path: '/api/auth/logout', body: { refresh_token: 'r1' } });
    expect(localStorage.getItem(REFRESH_TOKEN_KEY)).toBeNull();
    expect(getAccessToken()).toBeNull();
    expect(screen.getByRole('status').textContent).toBe('Logged out successfully');
  });

  it('clears the session when the refresh on load fails', async () => {
    localStorage.setItem(REFRESH_TOKEN_KEY, 'stale');
    vi.stubGlobal('fetch', async () => json(401, { error: 'Invalid or expired refresh token' }));
    mount();
    await screen.findByText('signed out');
    expect(localStorage.getItem(REFRESH_TOKEN_KEY)).toBeNull();
  });
});

import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { startBootRequests } from '../../app/boot-requests.js';
import { DevicesPage } from '../../app/pages.js';
import { startOAuthNonce } from '../../shared/session/oauth-nonce.js';
import { useSession } from '../../shared/session/session-context.js';
import { getAccessToken, REFRESH_TOKEN_KEY, setAccessToken } from '../../shared/session/token-store.js';
import { ToastProvider } from '../../shared/toast/ToastProvider.js';
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

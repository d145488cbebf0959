import type { User } from '@hearth/contracts';
import { type ReactNode, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { api, preloadedAnswer } from '../../shared/api/client.js';
import { refreshTokens } from '../../shared/api/refresh.js';
import { takeOAuthNonce } from '../../shared/session/oauth-nonce.js';
import { SessionContext, type SessionValue } from '../../shared/session/session-context.js';
import {
  type AuthTab,
  type SessionControl,
  SessionControlContext,
} from '../../shared/session/session-control.js';
import {
  clearTokens,
  getAccessToken,
  getRefreshToken,
  onAccessTokenChange,
  type SavedTokens,
  saveTokens,
  storeRefreshToken,
} from '../../shared/session/token-store.js';
import { useToast } from '../../shared/toast/toast-context.js';
import { oauthErrorMessage, readOAuthReturn, SHOWN_ERRORS } from './oauth-return.js';

/** docs/strings.md#constants-and-limits: while a refresh token exists, refresh every 13 minutes. */
export const REFRESH_INTERVAL_MS = 13 * 60 * 1000;

async function providerName(): Promise<string> {
  const result = await api.get<{ providers?: { name?: string }[] }>('/api/auth/oauth/providers');
  return result.data?.providers?.[0]?.name ?? 'OAuth';
}

/**
 * docs/screens.md#routes: read the identity-provider return, take its tokens, log its error. The
 * tokens are taken only with the nonce this tab started the sign-in with (issue 11 item 8);
 * anything else is dropped, and the address is cleaned either way.
 */
function takeOAuthReturn(notify: (message: string) => void): boolean {
  const found = readOAuthReturn(window.location.href);
  if (found.cleanUrl === null) return false;
  window.history.replaceState(window.history.state, '', found.cleanUrl);
  const ours = takeOAuthNonce(found.nonce);
  if (found.error) {
    const code = found.error;
    void providerName().then((name) => {
      const message = oauthErrorMessage(code, name);
      console.warn(message);
      // Errors a person must act on (their account exists: sign in and connect; a failed connect).
      if (SHOWN_ERRORS.has(code)) notify(message);
    });
  }
  if (found.connected) void providerName().then((name) => notify(`${name} connected`));
  if (found.refreshToken && ours) {
    // The pair travelled in the URL: keep only the refresh token, and spend it at once.
    storeRefreshToken(found.refreshToken);
    return true;
  }
  return false;
}

/** docs/screens.md#session / docs/screens.md#session / docs/screens.md#token-refresh: the session the whole app reads through useSession(). */
export function SessionProvider({ children }: { children: ReactNode }) {
  const { showToast } = useToast();
  const [accessToken, setAccessToken] = useState(getAccessToken);
  // The boot's profile, when it has already arrived (app/boot-requests.ts): the first render is the
  // signed-in one, not a render without the user followed by the real one. The restore below takes
  // the same answer, so it changes nothing.
  const [user, setUser] = useState<User | null>(() => {
    const booted = getAccessToken() ? preloadedAnswer<User>('/api/auth/me') : undefined;
    return booted?.success ? booted.data : null;
  });
  const [loading, setLoading] = useState(user === null);
  const [authModal, setAuthModal] = useState<{ open: boolean; tab: AuthTab }>({ open: false, tab: 'login' });
  const started = useRef(false);

  useEffect(
    () =>
      onAccessTokenChange((token) => {
        setAccessToken(token || null);
        if (!token) setUser(null);
      }),
    [],
  );

  const fetchUser = useCallback(async () => {
    const result = await api.get<User>('/api/auth/me');
    if (result.success) setUser(result.data);
    return result.success;
  }, []);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    const fromProvider = takeOAuthReturn(showToast);
    const restore = async () => {
      try {
        // The boot may have refreshed already (app/boot-requests.ts); its profile is then on the way.
        if ((fromProvider || !getAccessToken()) && getRefreshToken()) await refreshTokens();
        if (getAccessToken() && !(await fetchUser()) && !getAccessToken()) clearTokens();
      } catch {
        clearTokens();
      }
      setLoading(false);
    };
    void restore();
  }, [fetchUser, showToast]);

  const signedIn = accessToken !== null;
  useEffect(() => {
    if (!signedIn) return;
    const timer = setInterval(() => {
      if (getRefreshToken()) refreshTokens().catch(() => {});
    }, REFRESH_INTERVAL_MS);
    return () => clearInterval(timer);
  }, [signedIn]);

  const signIn = useCallback(
    async (tokens: SavedTokens) => {
      saveTokens(tokens);
      return (await fetchUser()) ? null : 'Failed to fetch user profile';
    },
    [fetchUser],
  );

  const refreshUser = useCallback(async () => {
    await fetchUser();
  }, [fetchUser]);

  const logout = useCallback(async () => {
    const refreshToken = getRefreshToken();
    if (refreshToken) await api.post('/api/auth/logout', { refresh_token: refreshToken });
    clearTokens();
    setUser(null);
    showToast('Logged out successfully');
  }, [showToast]);

  const openAuthModal = useCallback((tab: AuthTab = 'login') => setAuthModal({ open: true, tab }), []);
  const closeAuthModal = useCallback(() => setAuthModal((modal) => ({ ...modal, open: false })), []);
  const setAuthTab = useCallback((tab: AuthTab) => setAuthModal((modal) => ({ ...modal, tab })), []);

  const session = useMemo<SessionValue>(
    () => ({ user, accessToken, loading, refreshUser, logout, openAuthModal }),
    [user, accessToken, loading, refreshUser, logout, openAuthModal],
  );
  const control = useMemo<SessionControl>(
    () => ({ signIn, authModal, setAuthTab, closeAuthModal }),
    [signIn, authModal, setAuthTab, closeAuthModal],
  );

  return (
    <SessionContext.Provider value={session}>
      <SessionControlContext.Provider value={control}>{children}</SessionControlContext.Provider>
    </SessionContext.Provider>
  );
}

import type { TokenPair } from '@hearth/contracts';

/**
 * Where the session's tokens live (docs/screens.md#session, docs/strings.md#constants-and-limits): the access token in memory only, the refresh
 * token in localStorage["refreshToken"], and the `auth_token` cookie (path /, SameSite=Strict,
 * max-age 900) beside them. The session provider listens for changes made by the API client.
 */
export const REFRESH_TOKEN_KEY = 'refreshToken';
export const AUTH_COOKIE = 'auth_token';
export const AUTH_COOKIE_MAX_AGE_S = 900;

/** A pair as saved: the wire TokenPair, whose refresh token a refresh answer may leave out. */
export type SavedTokens = Pick<TokenPair, 'access_token'> & Partial<Pick<TokenPair, 'refresh_token'>>;

type Listener = (accessToken: string | null) => void;

let accessToken: string | null = null;
const listeners = new Set<Listener>();

export const getAccessToken = () => accessToken;

/** Sets the in-memory token only (the API client's historical entry point). */
export function setAccessToken(token: string | null) {
  accessToken = token;
  for (const listener of listeners) listener(token);
}

export function getRefreshToken(): string | null {
  try {
    return window.localStorage.getItem(REFRESH_TOKEN_KEY);
  } catch {
    return null;
  }
}

function writeCookie(value: string, maxAge: number) {
  // biome-ignore lint/suspicious/noDocumentCookie: the Cookie Store API is async and missing in Firefox/Safari; this write must be synchronous.
  document.cookie = `${AUTH_COOKIE}=${encodeURIComponent(value)}; path=/; max-age=${maxAge}; SameSite=Strict`;
}

/** Keeps a refresh token that arrived on its own (the identity-provider return), to spend it. */
export function storeRefreshToken(token: string) {
  try {
    window.localStorage.setItem(REFRESH_TOKEN_KEY, token);
  } catch {
    // no storage: nothing to spend later
  }
}

/** Entering "signed in" (docs/screens.md#session), and every refresh. */
export function saveTokens(tokens: SavedTokens) {
  try {
    if (tokens.refresh_token) window.localStorage.setItem(REFRESH_TOKEN_KEY, tokens.refresh_token);
  } catch {
    // Private mode without storage: the session then lasts as long as the page.
  }
  writeCookie(tokens.access_token, AUTH_COOKIE_MAX_AGE_S);
  setAccessToken(tokens.access_token);
}

/** Clears the whole session: memory, local storage and the cookie (set expired). */
export function clearTokens() {
  try {
    window.localStorage.removeItem(REFRESH_TOKEN_KEY);
  } catch {
    // nothing stored
  }
  writeCookie('', 0);
  setAccessToken(null);
}

export function onAccessTokenChange(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

import type { TokenPair } from '@hearth/contracts';

/**
 * Where the session's tokens live (docs/screens.md#session, docs/strings.md#constants-and-limits): the access token in memory only, the refresh
 * token in localStorage["refreshToken"], and the `auth_token` cookie (path /, SameSite=Strict,
 * max-age 900) beside them. The cookie is the server's: every answer with a new access token sets
 * it HttpOnly (no script can read or write it, issue 11 item 13) and logout clears it. The session
 * provider listens for changes made by the API client.
 */
export const REFRESH_TOKEN_KEY = 'refreshToken';

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
  setAccessToken(tokens.access_token);
}

/** Clears the session in this tab: memory and local storage (the server's logout clears the cookie). */
export function clearTokens() {
  try {
    window.localStorage.removeItem(REFRESH_TOKEN_KEY);
  } catch {
    // nothing stored
  }
  setAccessToken(null);
}

export function onAccessTokenChange(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

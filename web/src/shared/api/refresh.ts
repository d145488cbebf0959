import { clearTokens, getRefreshToken, saveTokens } from '../session/token-store.js';
import { fetchWithTimeout, readJson } from './http.js';

export const NO_ACCESS_TOKEN_IN_REFRESH = 'No access token in refresh response';
export const REFRESH_PATH = '/api/auth/refresh';

let inFlight: Promise<string> | null = null;

async function refreshNow(): Promise<string> {
  const refreshToken = getRefreshToken();
  if (!refreshToken) throw new Error('No refresh token');
  const response = await fetchWithTimeout(new URL(REFRESH_PATH, window.location.origin), {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ refresh_token: refreshToken }),
    credentials: 'same-origin',
  });
  const data = await readJson(response);
  if (!response.ok) {
    throw new Error(String(data.error ?? data.message ?? 'POST failed'));
  }
  if (typeof data.access_token !== 'string' || data.access_token === '') {
    throw new Error(NO_ACCESS_TOKEN_IN_REFRESH);
  }
  saveTokens({
    access_token: data.access_token,
    refresh_token: typeof data.refresh_token === 'string' ? data.refresh_token : refreshToken,
  });
  return data.access_token;
}

/**
 * docs/screens.md#token-refresh: exactly one refresh at a time. Every caller that arrives while a refresh is in
 * flight waits for the same one. On failure the whole session is cleared and the error thrown.
 */
export function refreshTokens(): Promise<string> {
  if (!inFlight) {
    inFlight = refreshNow()
      .catch((error: unknown) => {
        clearTokens();
        throw error instanceof Error ? error : new Error(String(error));
      })
      .finally(() => {
        inFlight = null;
      });
  }
  return inFlight;
}

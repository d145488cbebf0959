/**
 * The API client of docs/api.md#result-wrapper-in-the-web-app, docs/screens.md#token-refresh and docs/api.md: every call resolves to a result wrapper, never throws.
 * 15 s time-out, `Authorization: Bearer` with the in-memory token, and on a 401 one refresh
 * shared by all concurrent requests, each retried once with the new token.
 */
import { getAccessToken, getRefreshToken, onAccessTokenChange } from '../session/token-store.js';
import { fetchWithTimeout, readJson } from './http.js';
import { refreshTokens } from './refresh.js';

export { getAccessToken, setAccessToken } from '../session/token-store.js';

export interface ApiResult<T = unknown> {
  success: boolean;
  data: T;
  status: number;
  /** On failure: data.error, else data.message, else the transport error message. */
  error?: string;
}

export type Query = Record<string, string | number | boolean | undefined>;
type Method = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

/** Calls whose 401 means "wrong credentials", never "token expired". */
const NO_REFRESH_PATHS = [
  '/api/auth/login/start',
  '/api/auth/login/finish',
  '/api/auth/refresh',
  '/api/auth/signup',
  '/api/auth/password/reset/request',
  '/api/auth/password/reset/confirm',
];

/** docs/api.md#result-wrapper-in-the-web-app: the error is data.error, else data.message, else the transport error, else "{METHOD} failed". */
export function toResult<T>(status: number, data: unknown, transportError?: string): ApiResult<T> {
  const ok = status >= 200 && status < 300 && transportError === undefined;
  if (ok) return { success: true, data: data as T, status };
  const body = (data ?? {}) as { error?: unknown; message?: unknown };
  const pick = (value: unknown) => (typeof value === 'string' && value !== '' ? value : undefined);
  return {
    success: false,
    data: data as T,
    status,
    error: pick(body.error) ?? pick(body.message) ?? pick(transportError),
  };
}

function buildUrl(path: string, query?: Query): URL {
  const url = new URL(path, window.location.origin);
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value !== undefined && value !== '') url.searchParams.set(key, String(value));
  }
  return url;
}

async function send<T>(method: Method, url: URL, body: unknown, token: string | null): Promise<ApiResult<T>> {
  const headers: Record<string, string> = {};
  if (token) headers.Authorization = `Bearer ${token}`;
  let payload: BodyInit | null = null;
  if (body instanceof FormData) payload = body;
  else if (body !== undefined) {
    headers['Content-Type'] = 'application/json';
    payload = JSON.stringify(body);
  }
  try {
    const response = await fetchWithTimeout(url, {
      method,
      headers,
      body: payload,
      credentials: 'same-origin',
    });
    const data = await readJson(response);
    return withFallback(toResult<T>(response.status, data), method);
  } catch (error) {
    return withFallback(toResult<T>(0, {}, (error as Error)?.message ?? ''), method);
  }
}

function withFallback<T>(result: ApiResult<T>, method: Method): ApiResult<T> {
  if (!result.success && !result.error) result.error = `${method} failed`;
  return result;
}

async function request<T>(
  method: Method,
  path: string,
  body?: unknown,
  query?: Query,
): Promise<ApiResult<T>> {
  const url = buildUrl(path, query);
  const sentWith = getAccessToken();
  const first = await send<T>(method, url, body, sentWith);
  if (first.status !== 401 || NO_REFRESH_PATHS.includes(url.pathname)) return first;

  // Someone refreshed while this request was on the wire: retry with the newer token.
  const current = getAccessToken();
  if (current && current !== sentWith) return send<T>(method, url, body, current);
  if (!getRefreshToken()) return first;
  try {
    const fresh = await refreshTokens();
    return send<T>(method, url, body, fresh);
  } catch (error) {
    return { ...first, error: (error as Error).message || first.error };
  }
}

/** How long a GET started ahead (preload) waits for the page to take it. */
export const PRELOAD_TTL_MS = 5000;

interface Preloaded {
  at: number;
  result: Promise<ApiResult>;
  /** The answer, once it has arrived. */
  settled?: ApiResult;
}

const preloaded = new Map<string, Preloaded>();
// Signing out drops what was asked for the account that was signed in.
onAccessTokenChange((token) => {
  if (!token) preloaded.clear();
});

/**
 * Starts a GET before the page that needs it has loaded (app/boot-requests.ts: the page's first
 * requests beside the session's, while its code is still on the way). The first `api.get` of the
 * same path within PRELOAD_TTL_MS takes this answer (a 401 on the way was refreshed and retried
 * as any call's is); any other asks the server again.
 */
export function preload<T = unknown>(path: string): Promise<ApiResult<T>> {
  const result = request<T>('GET', path);
  const entry: Preloaded = { at: Date.now(), result };
  preloaded.set(path, entry);
  void result.then((answer) => {
    entry.settled = answer;
  });
  return result;
}

/**
 * A preload's answer if it has already arrived (within PRELOAD_TTL_MS), without taking it: a
 * component's first render can start from it instead of rendering once without it. The `api.get`
 * that takes the preload then resolves with this same answer.
 */
export function preloadedAnswer<T>(path: string): ApiResult<T> | undefined {
  return freshPreload(path)?.settled as ApiResult<T> | undefined;
}

/** The preload of `path` if it is younger than PRELOAD_TTL_MS. */
function freshPreload(path: string): Preloaded | undefined {
  const entry = preloaded.get(path);
  return entry && Date.now() - entry.at < PRELOAD_TTL_MS ? entry : undefined;
}

function takePreloaded<T>(path: string): Promise<ApiResult<T>> | undefined {
  const entry = freshPreload(path);
  preloaded.delete(path);
  return entry?.result as Promise<ApiResult<T>> | undefined;
}

export const api = {
  get: <T>(path: string, query?: Query) =>
    (query ? undefined : takePreloaded<T>(path)) ?? request<T>('GET', path, undefined, query),
  post: <T>(path: string, body?: unknown, query?: Query) => request<T>('POST', path, body ?? {}, query),
  patch: <T>(path: string, body?: unknown) => request<T>('PATCH', path, body ?? {}),
  delete: <T>(path: string) => request<T>('DELETE', path),
  put: <T>(path: string, body?: unknown) => request<T>('PUT', path, body ?? {}),
  /** Multipart upload (e.g. a profile picture): the browser sets the boundary. */
  upload: <T>(path: string, form: FormData, query?: Query) => request<T>('POST', path, form, query),
};

/**
 * The API client of SPEC 3.9, 4.2 and 7: every call resolves to a result wrapper, never throws.
 * Placeholder implementation (no refresh queue yet) — the web app engineer completes it:
 * 15 s time-out, `Authorization: Bearer`, one refresh for all concurrent 401s, queued retries.
 */
export interface ApiResult<T = unknown> {
  success: boolean;
  data: T;
  status: number;
  /** On failure: data.error, else data.message, else the transport error message. */
  error?: string;
}

export type Query = Record<string, string | number | boolean | undefined>;

let accessToken: string | null = null;

/** The in-memory access token the client sends (set by the session). */
export function setAccessToken(token: string | null) {
  accessToken = token;
}
export const getAccessToken = () => accessToken;

async function request<T>(
  method: string,
  path: string,
  body?: unknown,
  query?: Query,
): Promise<ApiResult<T>> {
  const url = new URL(path, window.location.origin);
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value !== undefined && value !== '') url.searchParams.set(key, String(value));
  }
  const headers: Record<string, string> = {};
  if (accessToken) headers.Authorization = `Bearer ${accessToken}`;
  let payload: BodyInit | undefined;
  if (body instanceof FormData) payload = body;
  else if (body !== undefined) {
    headers['Content-Type'] = 'application/json';
    payload = JSON.stringify(body);
  }
  try {
    const response = await fetch(url, { method, headers, body: payload ?? null, credentials: 'same-origin' });
    const data = (await response.json().catch(() => ({}))) as T & { error?: string; message?: string };
    if (response.ok) return { success: true, data, status: response.status };
    return {
      success: false,
      data,
      status: response.status,
      error: data?.error ?? data?.message ?? `${method} failed`,
    };
  } catch (error) {
    return {
      success: false,
      data: {} as T,
      status: 0,
      error: (error as Error).message || `${method} failed`,
    };
  }
}

export const api = {
  get: <T>(path: string, query?: Query) => request<T>('GET', path, undefined, query),
  post: <T>(path: string, body?: unknown, query?: Query) => request<T>('POST', path, body ?? {}, query),
  patch: <T>(path: string, body?: unknown) => request<T>('PATCH', path, body ?? {}),
  delete: <T>(path: string) => request<T>('DELETE', path),
};

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  clearTokens,
  getAccessToken,
  getRefreshToken,
  REFRESH_TOKEN_KEY,
  saveTokens,
} from '../session/token-store.js';
import { api, PRELOAD_TTL_MS, preload, preloadedAnswer, toResult } from './client.js';

type Handler = (url: URL, init: RequestInit) => Response | Promise<Response>;

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

function serverWith(handler: Handler) {
  const calls: { path: string; auth: string | undefined }[] = [];
  vi.stubGlobal('fetch', async (input: URL, init: RequestInit) => {
    const url = new URL(String(input));
    const auth = (init.headers as Record<string, string> | undefined)?.Authorization;
    calls.push({ path: url.pathname, auth });
    return handler(url, init);
  });
  return calls;
}

/** A server where "old" has expired and a refresh hands out "new". */
const expiringServer = (refresh: () => Response) =>
  serverWith(async (url, init) => {
    if (url.pathname === '/api/auth/refresh') {
      await new Promise((resolve) => setTimeout(resolve, 5));
      return refresh();
    }
    const auth = (init.headers as Record<string, string>).Authorization;
    return auth === 'Bearer new' ? json(200, { path: url.pathname }) : json(401, { error: 'Unauthorized' });
  });

describe('api client', () => {
  beforeEach(() => {
    localStorage.clear();
    saveTokens({ access_token: 'old', refresh_token: 'r1' });
  });
  afterEach(() => vi.unstubAllGlobals());

  it('sends the in-memory access token as a Bearer header', async () => {
    const calls = serverWith(() => json(200, { ok: true }));
    const result = await api.get('/api/auth/me');
    expect(result).toEqual({ success: true, data: { ok: true }, status: 200 });
    expect(calls[0]?.auth).toBe('Bearer old');
  });

  it('answers the first GET of a preloaded path from the preload, and later ones from the server', async () => {
    let served = 0;
    const calls = serverWith(() => json(200, { served: ++served }));
    preload('/api/rooms');
    expect(calls).toHaveLength(1);
    expect((await api.get('/api/rooms')).data).toEqual({ served: 1 });
    expect(calls).toHaveLength(1);
    expect((await api.get('/api/rooms')).data).toEqual({ served: 2 });
    expect(calls).toHaveLength(2);
  });

  it("shows a preload's answer once it has arrived, without taking it; the GET then resolves with that answer", async () => {
    serverWith(() => json(200, { served: 1 }));
    const arriving = preload('/api/auth/me');
    expect(preloadedAnswer('/api/auth/me')).toBeUndefined();
    await arriving;
    await Promise.resolve();
    const answer = preloadedAnswer('/api/auth/me');
    expect(answer).toEqual({ success: true, data: { served: 1 }, status: 200 });
    expect(preloadedAnswer('/api/auth/me')).toBe(answer);
    expect(await api.get('/api/auth/me')).toBe(answer);
    expect(preloadedAnswer('/api/auth/me')).toBeUndefined();
  });

  it('asks again after a sign-out, or when the preload is too old', async () => {
    let served = 0;
    serverWith(() => json(200, { served: ++served }));
    preload('/api/rooms');
    clearTokens();
    saveTokens({ access_token: 'someone else' });
    expect((await api.get('/api/rooms')).data).toEqual({ served: 2 });
    vi.useFakeTimers();
    try {
      preload('/api/favourites');
      vi.advanceTimersByTime(PRELOAD_TTL_MS + 1);
      expect((await api.get('/api/favourites')).data).toEqual({ served: 4 });
    } finally {
      vi.useRealTimers();
    }
  });

  it('refreshes once for many concurrent 401s and retries each request once', async () => {
    const calls = expiringServer(() => json(200, { access_token: 'new', refresh_token: 'r2' }));
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) => api.get<{ path: string }>(`/api/thing/${i}`)),
    );
    expect(results.every((r) => r.success)).toBe(true);
    expect(results.map((r) => r.data.path)).toEqual(Array.from({ length: 8 }, (_, i) => `/api/thing/${i}`));
    expect(calls.filter((c) => c.path === '/api/auth/refresh')).toHaveLength(1);
    for (let i = 0; i < 8; i++) expect(calls.filter((c) => c.path === `/api/thing/${i}`)).toHaveLength(2);
    expect(getAccessToken()).toBe('new');
    expect(localStorage.getItem(REFRESH_TOKEN_KEY)).toBe('r2');
    // The auth_token cookie is the server's (HttpOnly, issue 11 item 13): no script writes it.
    expect(document.cookie).not.toContain('auth_token');
  });

  it('clears the whole session when the refresh fails, and the requests fail', async () => {
    const calls = expiringServer(() => json(401, { error: 'Invalid refresh token' }));
    const results = await Promise.all([api.get('/api/a'), api.post('/api/b', { x: 1 })]);
    expect(results.map((r) => r.success)).toEqual([false, false]);
    expect(results[0]?.status).toBe(401);
    expect(results[0]?.error).toBe('Invalid refresh token');
    expect(calls.filter((c) => c.path === '/api/auth/refresh')).toHaveLength(1);
    expect(getAccessToken()).toBeNull();
    expect(getRefreshToken()).toBeNull();
  });

  it('reports "No access token in refresh response" when the refresh answer lacks one', async () => {
    expiringServer(() => json(200, { refresh_token: 'r2' }));
    const result = await api.get('/api/a');
    expect(result.success).toBe(false);
    expect(result.error).toBe('No access token in refresh response');
    expect(getRefreshToken()).toBeNull();
  });

  it('retries a request only once, even if the retry answers 401 again', async () => {
    const calls = serverWith((url) =>
      url.pathname === '/api/auth/refresh'
        ? json(200, { access_token: 'new' })
        : json(401, { error: 'nope' }),
    );
    const result = await api.get('/api/a');
    expect(result).toMatchObject({ success: false, status: 401, error: 'nope' });
    expect(calls.map((c) => c.path)).toEqual(['/api/a', '/api/auth/refresh', '/api/a']);
  });

  it('does not refresh for a wrong password at login', async () => {
    const calls = serverWith(() => json(401, { error: 'Invalid credentials' }));
    const result = await api.post('/api/auth/login/start', { email: 'a@b.c', password: 'x' });
    expect(result.status).toBe(401);
    expect(calls).toHaveLength(1);
    expect(getRefreshToken()).toBe('r1');
  });

  it('gives up after 15 s with a failed result', async () => {
    vi.useFakeTimers();
    serverWith(
      (_url, init) =>
        new Promise((_resolve, reject) => {
          init.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
        }),
    );
    const pending = api.get('/api/slow');
    await vi.advanceTimersByTimeAsync(14_999);
    let settled = false;
    pending.then(() => {
      settled = true;
    });
    await vi.advanceTimersByTimeAsync(0);
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await expect(pending).resolves.toMatchObject({ success: false, status: 0, error: 'Request timed out' });
    vi.useRealTimers();
  });

  it('passes FormData through untouched for uploads', async () => {
    let contentType: string | undefined;
    let body: unknown;
    serverWith((_url, init) => {
      contentType = (init.headers as Record<string, string>)['Content-Type'];
      body = init.body;
      return json(200, {});
    });
    const form = new FormData();
    form.set('file', new Blob(['x'], { type: 'image/png' }), 'a.png');
    await api.upload('/api/auth/profile/upload', form, { user_id: '7' });
    expect(contentType).toBeUndefined();
    expect(body).toBe(form);
  });
});

describe('toResult (docs/api.md#result-wrapper-in-the-web-app)', () => {
  it.each([
    [200, { a: 1 }, undefined, { success: true, data: { a: 1 }, status: 200 }],
    [400, { error: 'Bad', message: 'm' }, undefined, { success: false, status: 400, error: 'Bad' }],
    [500, { message: 'Boom' }, undefined, { success: false, status: 500, error: 'Boom' }],
    [0, {}, 'Failed to fetch', { success: false, status: 0, error: 'Failed to fetch' }],
    [404, {}, undefined, { success: false, status: 404, error: undefined }],
  ])('status %s with %j', (status, data, transport, expected) => {
    expect(toResult(status, data, transport)).toMatchObject(expected);
  });

  it.each([
    ['GET', () => api.get('/x')],
    ['POST', () => api.post('/x')],
    ['PATCH', () => api.patch('/x')],
    ['DELETE', () => api.delete('/x')],
  ])('falls back to "%s failed"', async (method, call) => {
    vi.stubGlobal('fetch', async () => new Response('', { status: 500 }));
    await expect(call()).resolves.toMatchObject({ success: false, error: `${method} failed` });
    vi.unstubAllGlobals();
  });
});

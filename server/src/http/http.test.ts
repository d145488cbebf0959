import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { useTestApp } from '../../test/app.js';

const BIG_ASSET = Array.from({ length: 800 }, (_, i) => `export const tile${i} = "device ${i}";`).join('\n');

/** A built web app in miniature: the shell, one hashed asset and a favicon. */
function fakeWebRoot() {
  const webRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-web-'));
  fs.mkdirSync(path.join(webRoot, 'assets'));
  fs.writeFileSync(path.join(webRoot, 'index.html'), '<!doctype html><div id="root">app shell</div>');
  fs.writeFileSync(path.join(webRoot, 'assets', 'index-abc123.js'), 'console.log("app")');
  fs.writeFileSync(path.join(webRoot, 'assets', 'page-def456.js'), BIG_ASSET);
  fs.writeFileSync(path.join(webRoot, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  return webRoot;
}

describe('HTTP surface', () => {
  const webRoot = fakeWebRoot();
  afterAll(() => fs.rmSync(webRoot, { recursive: true, force: true }));
  const t = useTestApp({
    webRoot,
    // A route logging its body the way a careless domain might, to show what the logs keep out.
    routes: (app) =>
      app.post(
        '/api/test/echo',
        { schema: { querystring: z.looseObject({}), body: z.looseObject({}) } },
        async (request) => {
          request.log.info({ body: request.body }, 'echo body');
          return { ok: true };
        },
      ),
  });

  it('answers /healthz with 200 {"status":"ok"} when database and bus are ready', async () => {
    // app.inject does not listen, so the "http" part is only ready after listen().
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    // The device hub subscribes in the background; /healthz turns 200 once every part is ready.
    let response = await t.app.inject('/healthz');
    for (let tries = 0; response.statusCode !== 200 && tries < 50; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      response = await t.app.inject('/healthz');
    }
    expect(response.statusCode).toBe(200);
    // "status" as before; "details" beside it carries the bus probe (docs/api.md#health).
    expect(response.json()).toEqual({
      status: 'ok',
      details: { bus_round_trip_ms: expect.toBeOneOf([null, expect.any(Number)]), bus_delay_warning: false },
    });
  });

  it('reports the bus round trip in /healthz details, and never warns about the embedded broker', async () => {
    let details = (await t.app.inject('/healthz')).json().details;
    for (let tries = 0; details.bus_round_trip_ms === null && tries < 50; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      details = (await t.app.inject('/healthz')).json().details;
    }
    expect(details.bus_round_trip_ms).toBeGreaterThan(0);
    expect(details.bus_delay_warning).toBe(false);
  });

  it('sets the security headers on every response', async () => {
    for (const url of ['/', '/healthz', '/api/nope', '/assets/index-abc123.js']) {
      const response = await t.app.inject(url);
      expect(response.headers['x-content-type-options']).toBe('nosniff');
      expect(response.headers['referrer-policy']).toBe('no-referrer');
      expect(response.headers['x-powered-by']).toBeUndefined();
      const csp = String(response.headers['content-security-policy']);
      expect(csp).toContain("default-src 'self'");
      expect(csp).toContain("connect-src 'self' ws://localhost:8080");
      expect(csp).toContain("frame-ancestors 'none'");
    }
  });

  it('sends the web app files compressed to browsers that accept it, and JSON under 1 KB as it is', async () => {
    const big = await t.app.inject({
      url: '/assets/page-def456.js',
      headers: { 'accept-encoding': 'br, gzip' },
    });
    expect(big.statusCode).toBe(200);
    expect(big.headers['content-encoding']).toBe('br');
    expect(zlib.brotliDecompressSync(big.rawPayload).toString('utf8')).toBe(BIG_ASSET);
    const gzipped = await t.app.inject({
      url: '/assets/page-def456.js',
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(zlib.gunzipSync(gzipped.rawPayload).toString('utf8')).toBe(BIG_ASSET);
    const small = await t.app.inject({ url: '/healthz', headers: { 'accept-encoding': 'br, gzip' } });
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(small.json()).toHaveProperty('status');
  });

  it('serves the app at / and falls back to index.html for app routes, never cached', async () => {
    for (const url of ['/', '/devices', '/users?page=2', '/some/deep/link']) {
      const response = await t.app.inject(url);
      expect(response.statusCode, url).toBe(200);
      expect(response.headers['content-type']).toContain('text/html');
      expect(response.body).toContain('app shell');
      expect(response.headers['cache-control']).toBe('no-cache');
    }
  });

  it('serves pages and files without a "possible EventEmitter memory leak" warning in the log', async () => {
    const address = t.app.server.address();
    if (!address || typeof address === 'string') throw new Error('the app is not listening');
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(`${warning.name}: ${warning.message}`);
    process.on('warning', onWarning);
    try {
      for (const url of ['/', '/devices', '/activity', '/assets/page-def456.js', '/favicon.svg']) {
        const response = await fetch(`http://127.0.0.1:${address.port}${url}`, {
          headers: { 'accept-encoding': 'br, gzip' },
        });
        expect(response.status, url).toBe(200);
        await response.arrayBuffer();
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    } finally {
      process.off('warning', onWarning);
    }
    expect(warnings).toEqual([]);
  });

  it('serves hashed assets with a year-long immutable cache', async () => {
    const response = await t.app.inject('/assets/index-abc123.js');
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('answers unknown /api/* paths, missing assets and non-GET requests with JSON 404', async () => {
    for (const [method, url] of [
      ['GET', '/api/unknown'],
      ['POST', '/api/auth/nothing-here'],
      ['GET', '/assets/missing.js'],
      ['GET', '/missing.png'],
      ['DELETE', '/devices'],
    ] as const) {
      const response = await t.app.inject({ method, url });
      expect(response.statusCode, `${method} ${url}`).toBe(404);
      expect(response.json()).toEqual({ error: 'Not found' });
    }
  });

  it('answers malformed JSON with 400 and an oversized body with 413, as JSON', async () => {
    const malformed = await t.app.inject({
      method: 'POST',
      url: '/api/test/echo',
      headers: { 'content-type': 'application/json' },
      payload: '{"password": ',
    });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json()).toEqual({ error: 'Malformed JSON body' });

    const huge = await t.app.inject({
      method: 'POST',
      url: '/api/test/echo',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ filler: 'x'.repeat(2 * 1024 * 1024) }),
    });
    expect(huge.statusCode).toBe(413);
    expect(huge.json()).toEqual({ error: 'Request body is too large' });
  });

  it('keeps Authorization, cookies, passwords, codes and tokens out of the logs', async () => {
    const secrets = {
      authorization: 'Bearer eyJhbGciOiJIUzI1NiJ9.c2VjcmV0LWFjY2Vzcy10b2tlbg.sig',
      cookie: 'auth_token=cookie-secret-value',
      password: 'hunter2-super-secret',
      code: '918273',
      refresh: 'refresh-secret-value',
    };
    const response = await t.app.inject({
      method: 'POST',
      url: `/api/test/echo?refresh_token=${secrets.refresh}&page=2`,
      headers: { authorization: secrets.authorization, cookie: secrets.cookie },
      payload: { email: 'ada@example.com', password: secrets.password, code: secrets.code },
    });
    expect(response.statusCode).toBe(200);
    const logs = t.hearth.logs.text;
    expect(logs).toContain('echo body');
    expect(logs).toContain('ada@example.com');
    expect(logs).toContain('page=2');
    for (const secret of Object.values(secrets)) expect(logs).not.toContain(secret);
    expect(logs).not.toContain('eyJhbGciOiJIUzI1NiJ9');
  });
});

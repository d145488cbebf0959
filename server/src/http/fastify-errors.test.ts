import net from 'node:net';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../test/app.js';
import { createLogger } from '../logging/logger.js';
import { createHttpApp } from './http-app.js';
import { noQuery } from './validation.js';

describe('errors found before a route runs', () => {
  const t = useTestApp();
  let url: string;
  beforeAll(async () => {
    url = (await t.app.listen({ port: 0, host: '127.0.0.1' })).replace('localhost', '127.0.0.1');
  });
  const answer = async (path: string, init: RequestInit = {}) => {
    const response = await fetch(`${url}${path}`, init);
    return { status: response.status, body: await response.json() };
  };

  it('answers what Fastify and Node refuse with the same {error} shape', async () => {
    expect(await answer(`/api/auth/profile/pictures/${'x'.repeat(600)}`)).toEqual({
      status: 414,
      body: { error: 'URI is too long' },
    });
    expect(await answer('/api/auth/me', { headers: { 'x-filler': 'x'.repeat(20_000) } })).toEqual({
      status: 431,
      body: { error: 'Request Header Fields Too Large' },
    });
    expect(await answer('/api/auth/profile/pictures/%zz')).toEqual({
      status: 400,
      body: { error: 'Malformed URL' },
    });
    expect(await answer('/api/nowhere')).toEqual({ status: 404, body: { error: 'Not found' } });
    // Malformed JSON and an oversized body: http.test.ts.
    const unsupported = await answer('/api/auth/login/start', {
      method: 'POST',
      headers: { 'content-type': 'application/xml' },
      body: '<xml/>',
    });
    expect(unsupported).toEqual({ status: 415, body: { error: 'Unsupported content type' } });
  });

  it('answers an oversized body, a bad Content-Length, a wrong method and a broken request line in the {error} shape', async () => {
    expect(
      await answer('/api/auth/login/start', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'x'.repeat(1_100_000) }),
      }),
    ).toEqual({ status: 413, body: { error: 'Request body is too large' } });
    expect(
      await answer('/api/auth/login/start', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '',
      }),
    ).toEqual({ status: 400, body: { error: 'Malformed JSON body' } });
    expect(await answer('/healthz', { method: 'DELETE' })).toEqual({
      status: 404,
      body: { error: 'Not found' },
    });

    // What a browser or fetch() can't send: raw bytes on the socket.
    const raw = (request: string) =>
      new Promise<string>((resolve) => {
        const { port } = new URL(url);
        const socket = net.connect(Number(port), '127.0.0.1', () => socket.write(request));
        let text = '';
        socket.on('data', (chunk) => {
          text += chunk;
        });
        socket.on('close', () => resolve(text));
      });
    const broken = await raw('GARBAGE / HTTP/1.1\r\nHost: x\r\n\r\n');
    expect(broken).toMatch(/^HTTP\/1\.1 400 /);
    expect(broken).toMatch(/content-type: application\/json/i);
    expect(broken.endsWith('{"error":"Bad Request"}')).toBe(true);
    const badLength = await raw(
      'POST /api/auth/login/start HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: abc\r\nConnection: close\r\n\r\n{}',
    );
    expect(badLength).toMatch(/^HTTP\/1\.1 400 /);
    expect(badLength).toMatch(/\{"error":"[^"]+"\}$/);
  });

  it('answers a repeated query parameter with 400, not 500', async () => {
    const admin = await t.user('admin');
    const response = await t.app.inject({
      method: 'POST',
      url: `/api/auth/profile/upload?user_id=${admin.id}&user_id=${admin.id}`,
      headers: {
        authorization: `Bearer ${await t.tokenFor(admin)}`,
        'content-type': 'multipart/form-data; boundary=x',
      },
      payload: '--x--\r\n',
    });
    expect([response.statusCode, response.json()]).toEqual([400, { error: 'user_id must be given once' }]);
    const list = await t.call(admin, 'GET', '/api/auth/users?page=1&page=2');
    expect(list).toEqual({ status: 400, body: { error: 'page must be given once' } });
  });
});

describe('a request that arrives while the server closes', () => {
  it('gets 503 {error} with Retry-After, as every other 503', async () => {
    const app = createHttpApp({ log: createLogger('silent'), trustProxy: undefined });
    let finish = () => {};
    const slow = new Promise<void>((resolve) => {
      finish = resolve;
    });
    let started = () => {};
    const running = new Promise<void>((resolve) => {
      started = resolve;
    });
    app.get('/slow', { schema: { querystring: noQuery } }, async () => {
      started();
      await slow;
      return { done: true };
    });
    app.get('/quick', { schema: { querystring: noQuery } }, async () => ({ ok: true }));
    const address = await app.listen({ port: 0, host: '127.0.0.1' });
    const socket = net.connect(Number(new URL(address).port), '127.0.0.1');
    let text = '';
    socket.on('data', (chunk) => {
      text += chunk;
    });
    const ended = new Promise<void>((resolve) => socket.on('close', () => resolve()));
    socket.write('GET /slow HTTP/1.1\r\nHost: x\r\n\r\n');
    await running;
    const closed = app.close();
    // On the same, busy connection: a second request after the close began.
    socket.write('GET /quick HTTP/1.1\r\nHost: x\r\n\r\n');
    await new Promise((resolve) => setTimeout(resolve, 100));
    finish();
    await Promise.all([closed, ended]);
    const answers = text.split(/(?=HTTP\/1\.1 )/);
    expect(answers).toHaveLength(2);
    expect(answers[0]).toMatch(/^HTTP\/1\.1 200 /);
    expect(answers[1]).toMatch(/^HTTP\/1\.1 503 /);
    expect(answers[1]).toMatch(/retry-after: 5/i);
    expect(answers[1]?.endsWith('{"error":"Service temporarily unavailable, please try again later"}')).toBe(
      true,
    );
  });
});

import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../test/app.js';

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

import { createECDH, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../test/app.js';
import { testDatabases } from '../../test/databases.js';
import { PUSH_ERRORS as E } from './push.errors.js';

/** A browser's PushSubscription keys: a P-256 public key and a 16-byte auth secret. */
const browserKeys = () => ({
  p256dh: createECDH('prime256v1').generateKeys().toString('base64url'),
  auth: randomBytes(16).toString('base64url'),
});

/** docs/alerts.md#web-push: the key, and subscriptions that are https:, public and their person's alone. */
describe.each(testDatabases())('push routes on $name', ({ create }) => {
  const t = useTestApp({ database: create });

  it('answers one public key, the same for everyone and every call', async () => {
    const ada = await t.user('user');
    const bob = await t.user('resident');
    const first = await t.call(ada, 'GET', '/api/push/key');
    expect(first.status).toBe(200);
    expect(Buffer.from(first.body.public_key, 'base64url')).toHaveLength(65);
    expect((await t.call(bob, 'GET', '/api/push/key')).body).toEqual(first.body);
    expect((await t.call(undefined, 'GET', '/api/push/key')).status).toBe(401);
  });

  it.each([
    ['an http: endpoint', { endpoint: 'http://push.example/x', keys: browserKeys() }, E.endpointHttps],
    ['a loopback endpoint', { endpoint: 'https://127.0.0.1:8443/x', keys: browserKeys() }, E.endpointPrivate],
    ['localhost', { endpoint: 'https://localhost/x', keys: browserKeys() }, E.endpointPrivate],
    ['a link-local endpoint', { endpoint: 'https://[fe80::1]/x', keys: browserKeys() }, E.endpointPrivate],
    ['a LAN endpoint', { endpoint: 'https://192.168.1.20/x', keys: browserKeys() }, E.endpointPrivate],
    [
      'a short p256dh',
      { endpoint: 'https://8.8.8.8/x', keys: { ...browserKeys(), p256dh: 'AAAA' } },
      E.p256dh,
    ],
    [
      'a long auth',
      {
        endpoint: 'https://8.8.8.8/x',
        keys: { ...browserKeys(), auth: randomBytes(32).toString('base64url') },
      },
      E.auth,
    ],
    ['no keys', { endpoint: 'https://8.8.8.8/x' }, E.keys],
  ])('refuses %s with a clear 400', async (_name, body, message) => {
    const ada = await t.user('resident');
    const answer = await t.call(ada, 'POST', '/api/push/subscriptions', body);
    expect(answer).toEqual({ status: 400, body: { error: message } });
  });

  it("keeps a subscription its person's alone: another may take the endpoint over, not delete it", async () => {
    const ada = await t.user('resident');
    const bob = await t.user('resident');
    const subscription = { endpoint: 'https://8.8.8.8/push/ada', keys: browserKeys() };
    expect((await t.call(ada, 'POST', '/api/push/subscriptions', subscription)).status).toBe(201);
    expect(
      (await t.call(bob, 'DELETE', '/api/push/subscriptions', { endpoint: subscription.endpoint })).body,
    ).toEqual({
      error: E.notFound,
    });
    expect(
      (await t.call(ada, 'DELETE', '/api/push/subscriptions', { endpoint: subscription.endpoint })).status,
    ).toBe(204);
    expect(
      (await t.call(ada, 'DELETE', '/api/push/subscriptions', { endpoint: subscription.endpoint })).status,
    ).toBe(404);
  });
});

describe('push routes with PUSH_ALLOW_PRIVATE_ENDPOINTS=1', () => {
  const t = useTestApp({ env: { PUSH_ALLOW_PRIVATE_ENDPOINTS: '1' } });

  it('takes a loopback https endpoint (a test push service), still not http:', async () => {
    const ada = await t.user('user');
    const keys = browserKeys();
    expect(
      (await t.call(ada, 'POST', '/api/push/subscriptions', { endpoint: 'https://127.0.0.1:8443/x', keys }))
        .status,
    ).toBe(201);
    expect(
      (await t.call(ada, 'POST', '/api/push/subscriptions', { endpoint: 'http://127.0.0.1:8443/x', keys }))
        .body,
    ).toEqual({
      error: E.endpointHttps,
    });
  });
});

import { describe, expect, it } from 'vitest';
import { HttpError } from '../http/errors.js';
import { checkEndpoint, isPrivateAddress } from './push.endpoint.js';
import { PUSH_ERRORS as E } from './push.errors.js';

const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: unknown) => (error instanceof HttpError ? `${error.statusCode} ${error.message}` : String(error)),
  );

describe('push endpoints (docs/alerts.md#web-push)', () => {
  it.each([
    ['127.0.0.1', true],
    ['10.1.2.3', true],
    ['172.20.0.5', true],
    ['192.168.178.1', true],
    ['169.254.169.254', true],
    ['100.64.0.1', true],
    ['0.0.0.0', true],
    ['::1', true],
    ['fe80::1', true],
    ['fd12:3456::1', true],
    ['::ffff:127.0.0.1', true],
    ['8.8.8.8', false],
    ['2606:4700::6810:85e5', false],
  ])('%s is private: %s', (address, expected) => {
    expect(isPrivateAddress(address)).toBe(expected);
  });

  const publicLookup = async () => ['142.250.185.74'];
  it.each([
    ['http://fcm.googleapis.com/fcm/send/x', E.endpointHttps],
    ['not a url', E.endpointHttps],
    ['https://user:pw@push.example/x', E.endpointHttps],
    [`https://push.example/${'x'.repeat(2000)}`, E.endpointHttps],
    ['https://127.0.0.1:8443/push', E.endpointPrivate],
    ['https://[::1]/push', E.endpointPrivate],
    ['https://169.254.169.254/latest', E.endpointPrivate],
  ])('refuses %s with a 400', async (endpoint, message) => {
    expect(await refusal(checkEndpoint(endpoint, { allowPrivate: false, lookup: publicLookup }))).toBe(
      `400 ${message}`,
    );
  });

  it('refuses a host that resolves to a private address, or to nothing', async () => {
    const lan = async () => ['93.184.216.34', '192.168.1.20'];
    expect(await refusal(checkEndpoint('https://push.lan/x', { allowPrivate: false, lookup: lan }))).toBe(
      `400 ${E.endpointPrivate}`,
    );
    const missing = async () => {
      throw new Error('ENOTFOUND');
    };
    expect(
      await refusal(checkEndpoint('https://nowhere.invalid/x', { allowPrivate: false, lookup: missing })),
    ).toBe(`400 ${E.endpointUnresolved}`);
  });

  it('takes a public https endpoint, and a private one when PUSH_ALLOW_PRIVATE_ENDPOINTS allows it', async () => {
    await expect(
      checkEndpoint('https://fcm.googleapis.com/fcm/send/abc', { allowPrivate: false, lookup: publicLookup }),
    ).resolves.toBe('https://fcm.googleapis.com/fcm/send/abc');
    await expect(checkEndpoint('https://127.0.0.1:8443/push/1', { allowPrivate: true })).resolves.toBe(
      'https://127.0.0.1:8443/push/1',
    );
    expect(await refusal(checkEndpoint('http://127.0.0.1:8443/push/1', { allowPrivate: true }))).toBe(
      `400 ${E.endpointHttps}`,
    );
  });
});

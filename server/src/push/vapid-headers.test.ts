import * as jose from 'jose';
import { describe, expect, it } from 'vitest';
import webpush from 'web-push';
import { VapidHeaders } from './vapid-headers.js';

const keys = webpush.generateVAPIDKeys();
const SUBJECT = 'mailto:hearth@localhost';

/**
 * The token and key of an `Authorization: vapid t=…, k=…` header, the token verified with the key
 * at `at` (the test's clock, not the day the test runs).
 */
async function verified(header: string, at = Date.now()) {
  const match = /^vapid t=([^,]+), k=(.+)$/.exec(header);
  if (!match) throw new Error(`not a VAPID header: ${header}`);
  const [, token, key] = match as unknown as [string, string, string];
  const point = Buffer.from(key, 'base64url');
  const publicKey = await jose.importJWK({
    kty: 'EC',
    crv: 'P-256',
    x: point.subarray(1, 33).toString('base64url'),
    y: point.subarray(33, 65).toString('base64url'),
    alg: 'ES256',
  });
  const { payload } = await jose.jwtVerify(token, publicKey, {
    algorithms: ['ES256'],
    currentDate: new Date(at),
  });
  return { key, claims: payload };
}

describe('VapidHeaders', () => {
  it('signs one token per push service origin and sends it again until an hour before it expires', async () => {
    let now = Date.parse('2026-11-29T12:00:00Z');
    const vapid = new VapidHeaders(() => now);
    const first = vapid.authorization('https://push.example.test/send/a', SUBJECT, keys);
    expect(vapid.authorization('https://push.example.test/send/b', SUBJECT, keys)).toBe(first);
    const { key, claims } = await verified(first, now);
    expect(key).toBe(keys.publicKey);
    expect(claims).toMatchObject({ aud: 'https://push.example.test', sub: SUBJECT });
    expect(claims.exp).toBe(now / 1000 + 12 * 3600);

    const other = vapid.authorization('https://other.example.test:8443/x', SUBJECT, keys);
    expect(other).not.toBe(first);
    expect((await verified(other, now)).claims.aud).toBe('https://other.example.test:8443');

    now += 10 * 3600_000;
    expect(vapid.authorization('https://push.example.test/send/a', SUBJECT, keys)).toBe(first);
    now += 3600_000;
    const renewed = vapid.authorization('https://push.example.test/send/a', SUBJECT, keys);
    expect(renewed).not.toBe(first);
    expect((await verified(renewed, now)).claims.exp).toBe(now / 1000 + 12 * 3600);
  });

  it('signs again with new keys or another subject', async () => {
    const vapid = new VapidHeaders();
    const first = vapid.authorization('https://push.example.test/a', SUBJECT, keys);
    const rotated = webpush.generateVAPIDKeys();
    const again = vapid.authorization('https://push.example.test/a', SUBJECT, rotated);
    expect((await verified(again)).key).toBe(rotated.publicKey);
    const other = vapid.authorization('https://push.example.test/a', 'mailto:admin@localhost', rotated);
    expect((await verified(other)).claims.sub).toBe('mailto:admin@localhost');
    expect(new Set([first, again, other]).size).toBe(3);
  });
});

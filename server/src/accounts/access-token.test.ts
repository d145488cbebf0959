import { SignJWT, UnsecuredJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { AccessTokens } from './access-token.js';

const secret = 'x'.repeat(40);
const tokens = new AccessTokens(secret);

describe('access tokens', () => {
  it('round-trips the user id, role and session', async () => {
    const token = await tokens.sign({ userId: 'u-1', role: 'resident', sessionId: 's-1' });
    expect(await tokens.verify(token)).toEqual({
      userId: 'u-1',
      role: 'resident',
      sessionId: 's-1',
      issuedAt: expect.any(Number),
    });
  });

  // Issue 11 item 12: a correctly signed token without exp or iat would never end; without sid it
  // belongs to no session that could be revoked.
  it('refuses a signed token without exp, iat or session', async () => {
    const key = new TextEncoder().encode(secret);
    const base = () =>
      new SignJWT({ role: 'admin', sid: 's-1' })
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject('u-1')
        .setIssuer('hearth')
        .setAudience('hearth');
    const noExp = await base().setIssuedAt().sign(key);
    const noIat = await base().setExpirationTime('1h').sign(key);
    const noSid = await new SignJWT({ role: 'admin' })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('u-1')
      .setIssuer('hearth')
      .setAudience('hearth')
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(key);
    const complete = await base().setIssuedAt().setExpirationTime('1h').sign(key);
    expect(await tokens.verify(complete)).toMatchObject({ userId: 'u-1', sessionId: 's-1' });
    for (const token of [noExp, noIat, noSid]) expect(await tokens.verify(token)).toBeUndefined();
  });

  it('refuses forged, expired, alg:none and garbage tokens', async () => {
    const forged = await new AccessTokens('y'.repeat(40)).sign({
      userId: 'u-1',
      role: 'admin',
      sessionId: 's-1',
    });
    const expired = await tokens.sign({ userId: 'u-1', role: 'admin', sessionId: 's-1' }, -10);
    const none = new UnsecuredJWT({ role: 'admin' })
      .setSubject('u-1')
      .setIssuer('hearth')
      .setAudience('hearth')
      .setExpirationTime('1h')
      .encode();
    const otherAudience = await new SignJWT({ role: 'admin' })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('u-1')
      .setIssuer('hearth')
      .setAudience('someone-else')
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode(secret));
    for (const token of [forged, expired, none, otherAudience, 'not.a.jwt', '']) {
      expect(await tokens.verify(token)).toBeUndefined();
    }
  });

  it('takes a token it has checked at its word until the token expires, and no longer', async () => {
    let now = Date.now();
    const clocked = new AccessTokens(secret, () => now);
    const token = await clocked.sign({ userId: 'u-1', role: 'user', sessionId: 's-1' }, 60);
    expect(await clocked.verify(token)).toMatchObject({ userId: 'u-1', sessionId: 's-1' });
    now += 30_000;
    expect(await clocked.verify(token)).toMatchObject({ userId: 'u-1', sessionId: 's-1' });
    now += 31_000;
    expect(await clocked.verify(token)).toBeUndefined();
    expect(await clocked.verify(token)).toBeUndefined();
  });

  it('checks every other token in full, also one that differs from a checked one by a letter', async () => {
    const token = await tokens.sign({ userId: 'u-1', role: 'user', sessionId: 's-1' });
    expect(await tokens.verify(token)).toMatchObject({ userId: 'u-1' });
    const [header, payload, signature] = token.split('.') as [string, string, string];
    const asAdmin = Buffer.from(
      JSON.stringify({ ...JSON.parse(Buffer.from(payload, 'base64url').toString()), sub: 'u-admin' }),
    ).toString('base64url');
    // A letter inside the signature (the last one carries unused bits).
    const flipped = `${signature.slice(0, 10)}${signature[10] === 'A' ? 'B' : 'A'}${signature.slice(11)}`;
    expect(await tokens.verify(`${header}.${asAdmin}.${signature}`)).toBeUndefined();
    expect(await tokens.verify(`${header}.${payload}.${flipped}`)).toBeUndefined();
    expect(await tokens.verify(token)).toMatchObject({ userId: 'u-1' });
  });
});

import { SignJWT, UnsecuredJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { AccessTokens } from './access-token.js';

const secret = 'x'.repeat(40);
const tokens = new AccessTokens(secret);

describe('access tokens', () => {
  it('round-trips the user id and role', async () => {
    const token = await tokens.sign({ userId: 'u-1', role: 'resident' });
    expect(await tokens.verify(token)).toEqual({ userId: 'u-1', role: 'resident' });
  });

  it('refuses forged, expired, alg:none and garbage tokens', async () => {
    const forged = await new AccessTokens('y'.repeat(40)).sign({ userId: 'u-1', role: 'admin' });
    const expired = await tokens.sign({ userId: 'u-1', role: 'admin' }, -10);
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
});

import { describe, expect, it } from 'vitest';
import { oauthErrorMessage, readOAuthReturn } from './oauth-return.js';

describe('readOAuthReturn', () => {
  it('takes the tokens and removes them from the address, keeping the rest', () => {
    const result = readOAuthReturn('http://h/devices?access_token=a&x=1&refresh_token=r#top');
    expect(result).toEqual({
      accessToken: 'a',
      refreshToken: 'r',
      error: null,
      cleanUrl: '/devices?x=1#top',
    });
  });

  it('reads an error', () => {
    expect(readOAuthReturn('http://h/?error=oauth_failed')).toMatchObject({
      error: 'oauth_failed',
      cleanUrl: '/',
    });
  });

  it('leaves an address without them alone', () => {
    expect(readOAuthReturn('http://h/map?q=1').cleanUrl).toBeNull();
  });
});

describe('oauthErrorMessage (docs/strings.md#identity-provider-errors)', () => {
  it.each([
    ['oauth_cancelled', 'Google login was cancelled'],
    ['oauth_failed', 'Google login failed'],
    ['oauth_exchange_failed', 'Failed to exchange OAuth code'],
    ['email_conflict', 'Email already registered with different Google account'],
    ['token_failed', 'Failed to generate authentication tokens'],
    ['user_creation_failed', 'Failed to create user account'],
    ['link_failed', 'Failed to link Google account'],
    ['something_else', 'Authentication failed'],
    ['toString', 'Authentication failed'],
  ])('%s → %s', (code, message) => {
    expect(oauthErrorMessage(code, 'Google')).toBe(message);
  });
});

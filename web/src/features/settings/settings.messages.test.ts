import { describe, expect, it } from 'vitest';
import { failureMessage } from './settings.messages.js';

describe('failure messages (docs/strings.md#account-settings)', () => {
  it.each([
    // the e-mail verification request never carries ❌
    [
      'verifyRequest',
      429,
      { error: 'Please wait 12s before requesting another code' },
      'Please wait 12s before requesting another code',
    ],
    ['verifyRequest', 0, {}, 'Failed to request email verification'],
    // ❌ failures show the server's error when there is one…
    ['verifyConfirm', 400, { error: 'Invalid or expired code' }, '❌ Invalid or expired code'],
    ['twoFactorSetup', 409, { message: 'Verify your email first' }, '❌ Verify your email first'],
    // …otherwise their fallback
    ['verifyConfirm', 0, {}, '❌ Email verification failed'],
    ['twoFactorSetup', 500, null, '❌ Failed to setup 2FA'],
    ['twoFactorVerify', 502, {}, '❌ 2FA verification failed'],
    ['profile', 500, { error: '' }, '❌ Profile update failed'],
    ['password', 0, {}, '❌ Password update failed'],
    ['avatar', 500, {}, '❌ Avatar generation failed'],
    ['upload', 413, {}, '❌ Upload failed'],
    ['upload', 415, { error: 'Unsupported image type' }, '❌ Unsupported image type'],
    // a 400 that mentions "password" is shown as is
    ['password', 400, { error: 'Password is too common' }, 'Password is too common'],
    ['password', 401, { error: 'Current password is incorrect' }, '❌ Current password is incorrect'],
  ] as const)('%s %i %j → %s', (action, status, data, expected) => {
    expect(failureMessage(action, { status, data })).toBe(expected);
  });
});

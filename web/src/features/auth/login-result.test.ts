import { describe, expect, it } from 'vitest';
import type { ApiResult } from '../../shared/api/client.js';
import type { LoginStartAnswer } from './auth.api.js';
import { isLockout, secondsUntil, toLoginResult } from './login-result.js';

const failed = (status: number, data: LoginStartAnswer): ApiResult<LoginStartAnswer> => ({
  success: false,
  status,
  data,
  error: data.error,
});

describe('toLoginResult (docs/strings.md#login)', () => {
  it('signs in when tokens come back', () => {
    const ok = { success: true, status: 200, data: { access_token: 'a', refresh_token: 'r' } };
    expect(toLoginResult(ok)).toEqual({ success: true });
  });

  it('moves to pending 2FA', () => {
    const ok = {
      success: true,
      status: 200,
      data: { '2fa_required': true, user_id: '7', '2fa_type': 'email' },
    };
    expect(toLoginResult(ok)).toEqual({ success: false, twoFA: true, userId: '7', type: 'email' });
  });

  it('reads 401 as "Invalid email or password"', () => {
    expect(toLoginResult(failed(401, { error: 'Invalid credentials' })).error).toBe(
      'Invalid email or password',
    );
  });

  it('passes other server errors through', () => {
    expect(toLoginResult(failed(400, { error: 'Email is invalid' })).error).toBe('Email is invalid');
  });

  it('reads a 423 login lockout with its countdown data', () => {
    const result = toLoginResult(
      failed(423, {
        error: 'Account locked. Try again in 300 seconds',
        lockout_remaining: 300,
        unlock_at: 2000,
        reason: 'login_lockout',
      }),
    );
    expect(result).toEqual({
      success: false,
      lockoutRemaining: 300,
      unlockAt: 2000,
      reason: 'login_lockout',
      error: 'Account locked',
    });
    expect(isLockout(result)).toBe(true);
  });

  it.each([
    ['admin_lock', 'Account is locked', 'Account locked by administrator'],
    ['login_lockout', 'Too many attempts', 'Too many attempts'],
    [undefined, '', 'Account locked'],
  ])('reason %s with error %j reads %j', (reason, error, message) => {
    expect(toLoginResult(failed(423, { error, reason })).error).toBe(message);
  });

  it('shows an administrator lock without a countdown', () => {
    const result = toLoginResult(failed(423, { error: 'Account locked', reason: 'admin_lock' }));
    expect(result.error).toBe('Account locked by administrator');
    expect(secondsUntil(result, Date.now())).toBe(0);
  });

  it('treats an error text containing "locked" as a lockout even without 423', () => {
    expect(isLockout(toLoginResult(failed(403, { error: 'User is locked', reason: 'login_lockout' })))).toBe(
      true,
    );
  });
});

describe('secondsUntil', () => {
  it('counts to unlock_at from now, rounding up', () => {
    expect(secondsUntil({ success: false, unlockAt: 1010 }, 1_000_500)).toBe(10);
    expect(secondsUntil({ success: false, unlockAt: 1000 }, 1_005_000)).toBe(0);
    expect(secondsUntil({ success: false, lockoutRemaining: 42 }, 0)).toBe(42);
  });
});

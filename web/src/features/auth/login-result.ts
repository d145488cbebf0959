import type { ApiResult } from '../../shared/api/client.js';
import type { LoginStartAnswer } from './auth.api.js';

/** docs/screens.md#signing-in: the login result as the login screen sees it. */
export interface LoginResult {
  success: boolean;
  twoFA?: boolean;
  userId?: string;
  type?: string;
  lockoutRemaining?: number;
  unlockAt?: number;
  reason?: string;
  error?: string;
}

export const LOCKOUT_STATUS = 423;

/** docs/strings.md#login: how a login-start answer reads on the login screen. */
export function toLoginResult(result: ApiResult<LoginStartAnswer>): LoginResult {
  const data = result.data ?? {};
  if (result.success) {
    if (data['2fa_required']) {
      return { success: false, twoFA: true, userId: data.user_id, type: data['2fa_type'] ?? 'email' };
    }
    return { success: true };
  }
  const error = result.error ?? '';
  if (result.status === LOCKOUT_STATUS || /locked/i.test(error)) {
    return {
      success: false,
      lockoutRemaining: typeof data.lockout_remaining === 'number' ? data.lockout_remaining : undefined,
      unlockAt: typeof data.unlock_at === 'number' ? data.unlock_at : undefined,
      reason: data.reason,
      error: lockoutMessage(data.reason, error),
    };
  }
  if (result.status === 401) return { success: false, error: 'Invalid email or password' };
  return { success: false, error: error || 'POST failed' };
}

function lockoutMessage(reason: string | undefined, serverError: string): string {
  if (reason === 'admin_lock') return 'Account locked by administrator';
  if (serverError && !/locked\. try again/i.test(serverError)) return serverError;
  return 'Account locked';
}

/** The login screen's test for a lockout (docs/strings.md#login). */
export function isLockout(result: LoginResult): boolean {
  return /lockout|locked/i.test(result.reason ?? '') || result.lockoutRemaining !== undefined;
}

/** Seconds left until `unlockAt` (epoch s), else the remaining count given; never negative. */
export function secondsUntil(result: LoginResult, nowMs: number): number {
  if (result.unlockAt !== undefined) return Math.max(0, Math.ceil(result.unlockAt - nowMs / 1000));
  return Math.max(0, Math.ceil(result.lockoutRemaining ?? 0));
}

import { HttpError } from '../http/errors.js';
import { nowIso } from '../storage/columns.js';
import { normaliseEmail } from '../users/index.js';
import { MESSAGES } from './accounts.errors.js';
import type { LockoutRepository } from './lockout.repository.js';

export const LOCKOUT_MAX_FAILURES = 5;
export const LOCKOUT_WINDOW_MS = 15 * 60 * 1000;
export const LOCKOUT_DURATION_MS = 15 * 60 * 1000;

/** docs/api.md#lockout-answer: `423 {error, lockout_remaining, unlock_at (epoch s), reason}`. */
export function loginLockedError(until: number, now = Date.now()): HttpError {
  return new HttpError(423, MESSAGES.accountLocked, {
    lockout_remaining: Math.max(1, Math.ceil((until - now) / 1000)),
    unlock_at: Math.ceil(until / 1000),
    reason: 'login_lockout',
  });
}

export const adminLockedError = () =>
  new HttpError(423, MESSAGES.adminLocked, {
    lockout_remaining: null,
    unlock_at: null,
    reason: 'admin_lock',
  });

/**
 * Automatic lockout: 5 failures within 15 minutes lock the normalised e-mail for 15 minutes,
 * whether or not an account has that address, so a 423 reveals nothing. Kept in the database so
 * every instance sees it. Recording a failure that can't be stored fails closed (503).
 */
export class LoginLockout {
  constructor(private readonly repository: LockoutRepository) {}

  /** Throws the 423 while the address is locked. */
  async assertOpen(email: string): Promise<void> {
    const key = normaliseEmail(email);
    const { lockedUntil, account } = await this.repository.state(key);
    if (!lockedUntil || Date.parse(lockedUntil) <= Date.now()) return;
    if (account && account.lockoutReason === null) {
      // An administrator unlocked the account meanwhile: their word stands.
      await this.repository.clear(key);
      return;
    }
    throw loginLockedError(Date.parse(lockedUntil));
  }

  /** Counts a failure; throws the 423 when it is the one that locks the address. */
  async recordFailure(email: string): Promise<void> {
    const key = normaliseEmail(email);
    const now = Date.now();
    let failures: number;
    try {
      await this.repository.addFailure(key, nowIso(now));
      failures = await this.repository.countFailuresSince(key, nowIso(now - LOCKOUT_WINDOW_MS));
      if (failures >= LOCKOUT_MAX_FAILURES)
        await this.repository.lock(key, nowIso(now + LOCKOUT_DURATION_MS));
    } catch {
      throw new HttpError(503, MESSAGES.signInUnavailable);
    }
    if (failures >= LOCKOUT_MAX_FAILURES) throw loginLockedError(now + LOCKOUT_DURATION_MS, now);
  }

  /** A successful sign-in (or password reset) starts the count afresh. */
  async reset(email: string): Promise<void> {
    await this.repository.clear(normaliseEmail(email));
  }
}

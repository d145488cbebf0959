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

/** One counted attempt: a failure keeps it (and may lock), a success clears the count. */
export interface LoginAttempt {
  /** The wrong password or code: throws the 423 when this failure is the one that locks. */
  failed(): Promise<void>;
  /** The right one: the count starts afresh. */
  succeeded(): Promise<void>;
}

/**
 * Automatic lockout: 5 failures within 15 minutes lock the normalised e-mail for 15 minutes,
 * whether or not an account has that address, so a 423 reveals nothing. Kept in the database so
 * every instance sees it. Every attempt is counted (reserved) in one atomic statement before the
 * password is hashed, so parallel attempts cannot get past the count: attempt 6 and later of a
 * window are refused without hashing, and a success clears the count. State that can't be read
 * or stored fails closed (503).
 */
export class LoginLockout {
  constructor(private readonly repository: LockoutRepository) {}

  /** Throws the 423 while the address is locked. */
  async assertOpen(email: string): Promise<void> {
    const until = await this.lockedUntil(normaliseEmail(email));
    if (until !== undefined) throw loginLockedError(until);
  }

  /**
   * Counts an attempt before anything is checked. Throws the 423 when the address is locked or
   * when this attempt would be past the limit (then it locks the address, hashing nothing).
   */
  async reserve(email: string): Promise<LoginAttempt> {
    const key = normaliseEmail(email);
    let attempt: number | undefined;
    for (let tries = 0; tries < 2 && attempt === undefined; tries++) {
      const now = Date.now();
      attempt = await this.guard(() => this.repository.reserve(key, now, LOCKOUT_WINDOW_MS));
      if (attempt !== undefined) break;
      const until = await this.lockedUntil(key);
      if (until !== undefined) throw loginLockedError(until);
      // The lock ended (or an administrator lifted it) in between: count again.
    }
    if (attempt === undefined) throw new HttpError(503, MESSAGES.signInUnavailable);
    if (attempt > LOCKOUT_MAX_FAILURES) await this.lock(key);
    const number = attempt;
    return {
      failed: async () => {
        if (number >= LOCKOUT_MAX_FAILURES) await this.lock(key);
      },
      succeeded: () => this.reset(key),
    };
  }

  /** Counts a failure that needed no reservation (a wrong code); throws the 423 when it locks. */
  async recordFailure(email: string): Promise<void> {
    const attempt = await this.reserve(email);
    await attempt.failed();
  }

  /** A successful sign-in (or password reset) starts the count afresh. */
  async reset(email: string): Promise<void> {
    await this.repository.clear(normaliseEmail(email));
  }

  /** Locks the address now and throws its 423. */
  private async lock(key: string): Promise<never> {
    const now = Date.now();
    await this.guard(() => this.repository.lock(key, nowIso(now + LOCKOUT_DURATION_MS)));
    throw loginLockedError(now + LOCKOUT_DURATION_MS, now);
  }

  /** When the address's lock ends, or undefined when it is open. */
  private async lockedUntil(key: string): Promise<number | undefined> {
    const { lockedUntil, account } = await this.guard(() => this.repository.state(key));
    if (!lockedUntil || Date.parse(lockedUntil) <= Date.now()) return undefined;
    if (account && account.lockoutReason === null) {
      // An administrator unlocked the account meanwhile: their word stands.
      await this.guard(() => this.repository.clear(key));
      return undefined;
    }
    return Date.parse(lockedUntil);
  }

  private async guard<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch {
      throw new HttpError(503, MESSAGES.signInUnavailable);
    }
  }
}

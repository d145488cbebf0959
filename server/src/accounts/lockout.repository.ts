import type { Kysely } from 'kysely';
import { nowIso } from '../storage/columns.js';
import type { Database } from '../storage/schema.js';

export interface LockState {
  lockedUntil: string | undefined;
  /** The account with this address, if any, and the lock reason shown on it. */
  account: { lockoutReason: string | null } | undefined;
}

/**
 * Attempts and lockouts by normalised e-mail, one row each (login_attempts). A lockout of an
 * existing account is also shown on its users row (lockout_reason 'login_lockout'), so the Users
 * page lists it as Locked; an administrator's unlock clears that row, which ends the lockout here
 * too. The two are written in one transaction, so a lock is never seen without its users row.
 */
export class LockoutRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /**
   * Counts one attempt, in one statement, before any password is checked: a new window when the
   * last one (or the last lock) ended. Answers the attempt's number in the window, or undefined
   * when the address is locked (nothing counted). Atomic on SQLite and PostgreSQL, so parallel
   * attempts on any instance get distinct numbers.
   */
  async reserve(emailKey: string, now: number, windowMs: number): Promise<number | undefined> {
    const current = nowIso(now);
    const row = await this.db
      .insertInto('login_attempts')
      .values({
        email_key: emailKey,
        failures: 1,
        window_ends_at: nowIso(now + windowMs),
        locked_until: null,
      })
      .onConflict((conflict) =>
        conflict
          .column('email_key')
          .doUpdateSet((eb) => {
            const ended = eb.or([
              eb('login_attempts.window_ends_at', '<=', current),
              eb('login_attempts.locked_until', '<=', current),
            ]);
            return {
              failures: eb
                .case()
                .when(ended)
                .then(1)
                .else(eb('login_attempts.failures', '+', 1))
                .end(),
              window_ends_at: eb
                .case()
                .when(ended)
                .then(eb.ref('excluded.window_ends_at'))
                .else(eb.ref('login_attempts.window_ends_at'))
                .end(),
              locked_until: null,
            };
          })
          .where((eb) =>
            eb.or([
              eb('login_attempts.locked_until', 'is', null),
              eb('login_attempts.locked_until', '<=', current),
            ]),
          ),
      )
      .returning('failures')
      .executeTakeFirst();
    return row ? Number(row.failures) : undefined;
  }

  /** Gives back a counted attempt that turned out not to be a failure. */
  async refund(emailKey: string): Promise<void> {
    await this.db
      .updateTable('login_attempts')
      .set((eb) => ({ failures: eb('failures', '-', 1) }))
      .where('email_key', '=', emailKey)
      .where('failures', '>', 0)
      .execute();
  }

  async state(emailKey: string): Promise<LockState> {
    const lock = await this.db
      .selectFrom('login_attempts')
      .select('locked_until')
      .where('email_key', '=', emailKey)
      .executeTakeFirst();
    if (!lock?.locked_until) return { lockedUntil: undefined, account: undefined };
    const account = await this.db
      .selectFrom('users')
      .select('lockout_reason')
      .where('email', '=', emailKey)
      .executeTakeFirst();
    return {
      lockedUntil: lock.locked_until,
      account: account ? { lockoutReason: account.lockout_reason } : undefined,
    };
  }

  async lock(emailKey: string, until: string): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx
        .updateTable('login_attempts')
        .set({ locked_until: until })
        .where('email_key', '=', emailKey)
        .execute();
      await trx
        .updateTable('users')
        .set({
          lockout_enabled: 1,
          lockout_reason: 'login_lockout',
          lockout_until: until,
          updated_at: nowIso(),
        })
        .where('email', '=', emailKey)
        .where((eb) => eb.or([eb('lockout_reason', 'is', null), eb('lockout_reason', '=', 'login_lockout')]))
        .execute();
    });
  }

  async clear(emailKey: string): Promise<void> {
    await this.db.deleteFrom('login_attempts').where('email_key', '=', emailKey).execute();
    await this.db
      .updateTable('users')
      .set({ lockout_enabled: 0, lockout_reason: null, lockout_until: null, updated_at: nowIso() })
      .where('email', '=', emailKey)
      .where('lockout_reason', '=', 'login_lockout')
      .execute();
  }
}

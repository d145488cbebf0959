import type { Kysely } from 'kysely';
import { nowIso } from '../storage/columns.js';
import type { Database } from '../storage/schema.js';

export interface LockState {
  lockedUntil: string | undefined;
  /** The account with this address, if any, and the lock reason shown on it. */
  account: { lockoutReason: string | null } | undefined;
}

/**
 * Failures and lockouts by normalised e-mail. A lockout of an existing account is also shown on
 * its users row (lockout_reason 'login_lockout'), so the Users page lists it as Locked; an
 * administrator's unlock clears that row, which ends the lockout here too.
 */
export class LockoutRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async state(emailKey: string): Promise<LockState> {
    const lock = await this.db
      .selectFrom('login_lockouts')
      .select('locked_until')
      .where('email_key', '=', emailKey)
      .executeTakeFirst();
    if (!lock) return { lockedUntil: undefined, account: undefined };
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

  async addFailure(emailKey: string, at: string): Promise<void> {
    await this.db
      .insertInto('login_failures')
      .values({ id: crypto.randomUUID(), email_key: emailKey, failed_at: at })
      .execute();
  }

  async countFailuresSince(emailKey: string, since: string): Promise<number> {
    const { n } = await this.db
      .selectFrom('login_failures')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('email_key', '=', emailKey)
      .where('failed_at', '>', since)
      .executeTakeFirstOrThrow();
    return Number(n);
  }

  async lock(emailKey: string, until: string): Promise<void> {
    await this.db
      .insertInto('login_lockouts')
      .values({ email_key: emailKey, locked_until: until })
      .onConflict((oc) => oc.column('email_key').doUpdateSet({ locked_until: until }))
      .execute();
    await this.db.deleteFrom('login_failures').where('email_key', '=', emailKey).execute();
    await this.db
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
  }

  async clear(emailKey: string): Promise<void> {
    await this.db.deleteFrom('login_failures').where('email_key', '=', emailKey).execute();
    await this.db.deleteFrom('login_lockouts').where('email_key', '=', emailKey).execute();
    await this.db
      .updateTable('users')
      .set({ lockout_enabled: 0, lockout_reason: null, lockout_until: null, updated_at: nowIso() })
      .where('email', '=', emailKey)
      .where('lockout_reason', '=', 'login_lockout')
      .execute();
  }
}

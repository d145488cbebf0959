import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import { nowIso } from '../storage/columns.js';
import type { Database } from '../storage/schema.js';

const DAY_MS = 24 * 60 * 60 * 1000;
// Often enough that an ended login lockout soon stops showing as Locked on the Users page.
const EVERY_MS = 60 * 1000;

/** Deletes rows that can no longer matter (expired codes, sessions, failures and lockouts). */
export async function sweepAccounts(db: Kysely<Database>, now = Date.now()): Promise<void> {
  await db
    .deleteFrom('login_attempts')
    .where('window_ends_at', '<', nowIso(now))
    .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<', nowIso(now))]))
    .execute();
  await db
    .updateTable('users')
    .set({ lockout_enabled: 0, lockout_reason: null, lockout_until: null, updated_at: nowIso(now) })
    .where('lockout_reason', '=', 'login_lockout')
    .where('lockout_until', '<', nowIso(now))
    .execute();
  // Codes are kept a day past expiry: the hourly mail limit counts them.
  await db
    .deleteFrom('one_time_codes')
    .where('expires_at', '<', nowIso(now - DAY_MS))
    .execute();
  await db.deleteFrom('refresh_tokens').where('family_expires_at', '<', nowIso(now)).execute();
  await db.deleteFrom('auth_sessions').where('expires_at', '<', nowIso(now)).execute();
}

/** Sweeps once a minute; any instance may do it, the statements are idempotent. */
export function startHousekeeping(db: Kysely<Database>, log: Logger): () => void {
  const timer = setInterval(() => {
    sweepAccounts(db).catch((error) => log.warn({ err: error }, 'accounts housekeeping failed'));
  }, EVERY_MS);
  timer.unref();
  return () => clearInterval(timer);
}

import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { Database } from '../storage/schema.js';
import { nowIso } from '../storage/time.js';
import { LOCKOUT_WINDOW_MS } from './lockout.js';

const DAY_MS = 24 * 60 * 60 * 1000;
const EVERY_MS = 60 * 60 * 1000;

/** Deletes rows that can no longer matter (expired codes, sessions, failures and lockouts). */
export async function sweepAccounts(db: Kysely<Database>, now = Date.now()): Promise<void> {
  await db
    .deleteFrom('login_failures')
    .where('failed_at', '<', nowIso(now - LOCKOUT_WINDOW_MS))
    .execute();
  await db.deleteFrom('login_lockouts').where('locked_until', '<', nowIso(now)).execute();
  // Codes are kept a day past expiry: the hourly mail limit counts them.
  await db
    .deleteFrom('one_time_codes')
    .where('expires_at', '<', nowIso(now - DAY_MS))
    .execute();
  await db.deleteFrom('refresh_tokens').where('family_expires_at', '<', nowIso(now)).execute();
}

/** Sweeps once an hour; any instance may do it, the deletes are idempotent. */
export function startHousekeeping(db: Kysely<Database>, log: Logger): () => void {
  const timer = setInterval(() => {
    sweepAccounts(db).catch((error) => log.warn({ err: error }, 'accounts housekeeping failed'));
  }, EVERY_MS);
  timer.unref();
  return () => clearInterval(timer);
}

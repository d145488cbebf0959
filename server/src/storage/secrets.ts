import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Kysely } from 'kysely';
import { nowIso } from './columns.js';
import type { Database } from './schema.js';

/**
 * Returns the secret stored in $DATA_DIR/secrets/<name>, creating it (256 random bits, file
 * mode 0600, in a 0700 folder) the first time, and then calling `onCreate` with it. Used for
 * AUTH_SECRET when it is not configured, and for the embedded broker's passwords.
 */
export function loadOrCreateSecret(
  dataDir: string,
  name: string,
  onCreate?: (secret: string) => void,
): string {
  const dir = path.join(dataDir, 'secrets');
  const file = path.join(dir, name);
  try {
    const existing = fs.readFileSync(file, 'utf8').trim();
    if (existing.length >= 32) return existing;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const secret = randomBytes(32).toString('base64url');
  // 'wx' fails if another instance wrote it meanwhile; then read theirs.
  try {
    fs.writeFileSync(file, `${secret}\n`, { mode: 0o600, flag: 'wx' });
    onCreate?.(secret);
    return secret;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return fs.readFileSync(file, 'utf8').trim();
    throw error;
  }
}

/** A secret file in $DATA_DIR/secrets, if there is a usable one. */
function readSecretFile(dataDir: string, name: string): string | undefined {
  try {
    const existing = fs.readFileSync(path.join(dataDir, 'secrets', name), 'utf8').trim();
    return existing.length >= 32 ? existing : undefined;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    return undefined;
  }
}

/**
 * Returns the secret every instance on this database shares (table shared_secrets), creating it
 * the first time: from $DATA_DIR/secrets/<name> when an earlier version generated one there (so
 * tokens it signed stay valid), else 256 random bits. When two instances start at once, the
 * first insert wins and both read it back. `source` says where the answer came from.
 */
export async function loadOrCreateSharedSecret(
  db: Kysely<Database>,
  dataDir: string,
  name: string,
): Promise<{ secret: string; source: 'database' | 'data-dir' | 'generated' }> {
  const stored = () =>
    db.selectFrom('shared_secrets').select('value').where('name', '=', name).executeTakeFirst();
  const existing = await stored();
  if (existing) return { secret: existing.value, source: 'database' };
  const fromFile = readSecretFile(dataDir, name);
  const candidate = fromFile ?? randomBytes(32).toString('base64url');
  await db
    .insertInto('shared_secrets')
    .values({ name, value: candidate, created_at: nowIso() })
    .onConflict((conflict) => conflict.column('name').doNothing())
    .execute();
  const winner = await stored();
  if (!winner) throw new Error(`shared secret ${name} could not be stored`);
  if (winner.value !== candidate) return { secret: winner.value, source: 'database' };
  return { secret: winner.value, source: fromFile ? 'data-dir' : 'generated' };
}

import { describe, expect, it } from 'vitest';
import { testDatabases, useTestStorage } from '../../test/databases.js';
import { storeUser } from '../../test/users.js';
import { nowIso } from '../storage/columns.js';
import { UsersRepository } from '../users/index.js';
import { sweepAccounts } from './housekeeping.js';

describe.each(testDatabases())('accounts housekeeping on $name', ({ create }) => {
  const t = useTestStorage(create);

  it('deletes what has expired and keeps what still counts', async () => {
    const { db } = t.storage;
    const user = await storeUser(new UsersRepository(db));
    const now = Date.now();
    const ago = (ms: number) => nowIso(now - ms);
    const window = { failures: 3, window_ends_at: ago(-60_000), locked_until: null };
    await db
      .insertInto('login_attempts')
      .values([
        { ...window, email_key: 'old@b.co', window_ends_at: ago(1000) },
        { ...window, email_key: 'new@b.co' },
        { ...window, email_key: 'over@b.co', window_ends_at: ago(1000), locked_until: ago(1000) },
        { ...window, email_key: 'on@b.co', window_ends_at: ago(1000), locked_until: ago(-60_000) },
      ])
      .execute();
    const code = { user_id: user.id, purpose: 'email_verify' as const, code_hash: 'h', created_at: ago(0) };
    await db
      .insertInto('one_time_codes')
      .values([
        { ...code, id: 'stale', expires_at: ago(2 * 86_400_000) },
        { ...code, id: 'recent', expires_at: ago(60_000) },
      ])
      .execute();
    const token = {
      family_id: 'f',
      user_id: user.id,
      access_jti: 'j',
      access_issued_at: 0,
      access_ttl: 900,
      created_at: ago(0),
      expires_at: ago(0),
    };
    await db
      .insertInto('refresh_tokens')
      .values([
        { ...token, id: 'dead', token_hash: 'a', family_expires_at: ago(1000) },
        { ...token, id: 'alive', token_hash: 'b', family_expires_at: ago(-86_400_000) },
      ])
      .execute();

    await db
      .updateTable('users')
      .set({ lockout_enabled: 1, lockout_reason: 'login_lockout', lockout_until: ago(1000) })
      .where('id', '=', user.id)
      .execute();

    await sweepAccounts(db, now);

    const ids = async (table: 'one_time_codes' | 'refresh_tokens') =>
      (await db.selectFrom(table).select('id').execute()).map((row) => row.id);
    expect(await ids('one_time_codes')).toEqual(['recent']);
    expect(await ids('refresh_tokens')).toEqual(['alive']);
    expect(
      (await db.selectFrom('login_attempts').select('email_key').orderBy('email_key').execute()).map(
        (r) => r.email_key,
      ),
    ).toEqual(['new@b.co', 'on@b.co']);
  });
});

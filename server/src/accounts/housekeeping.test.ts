import { describe, expect, it } from 'vitest';
import { testDatabases, useTestStorage } from '../../test/databases.js';
import { nowIso } from '../storage/columns.js';
import { UsersRepository } from '../users/index.js';
import { sweepAccounts } from './housekeeping.js';

describe.each(testDatabases())('accounts housekeeping on $name', ({ create }) => {
  const t = useTestStorage(create);

  it('deletes what has expired and keeps what still counts', async () => {
    const { db } = t.storage;
    const user = await new UsersRepository(db).create({
      email: 'sweep@example.com',
      userName: 'sweep',
      firstName: 'S',
      lastName: 'W',
      passwordHash: null,
      role: 'user',
    });
    const now = Date.now();
    const ago = (ms: number) => nowIso(now - ms);
    await db
      .insertInto('login_failures')
      .values([
        { id: 'old', email_key: 'a@b.co', failed_at: ago(16 * 60_000) },
        { id: 'new', email_key: 'a@b.co', failed_at: ago(60_000) },
      ])
      .execute();
    await db
      .insertInto('login_lockouts')
      .values([
        { email_key: 'over@b.co', locked_until: ago(1000) },
        { email_key: 'on@b.co', locked_until: ago(-60_000) },
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

    const ids = async (table: 'login_failures' | 'one_time_codes' | 'refresh_tokens') =>
      (await db.selectFrom(table).select('id').execute()).map((row) => row.id);
    expect(await ids('login_failures')).toEqual(['new']);
    expect(await ids('one_time_codes')).toEqual(['recent']);
    expect(await ids('refresh_tokens')).toEqual(['alive']);
    expect(
      (await db.selectFrom('login_lockouts').select('email_key').execute()).map((r) => r.email_key),
    ).toEqual(['on@b.co']);
  });
});

import { describe, expect, it } from 'vitest';
import { testDatabases, useTestStorage } from '../../../test/databases.js';
import { storeUser } from '../../../test/users.js';
import { UsersRepository } from '../../users/index.js';
import { nowIso } from '../columns.js';
import { backfillSessions } from './0007_sessions_lockout.js';

describe.each(testDatabases())('migration 0007 on $name', ({ create }) => {
  const t = useTestStorage(create);

  it('turns every live refresh-token family into a session, so nobody is signed out by the upgrade', async () => {
    const { db } = t.storage;
    const user = await storeUser(new UsersRepository(db));
    const row = (id: string, family: string, revoked: string | null, created: string) => ({
      id,
      family_id: family,
      user_id: user.id,
      token_hash: id,
      access_jti: id,
      access_issued_at: 0,
      access_ttl: 900,
      created_at: created,
      expires_at: nowIso(Date.now() + 86_400_000),
      family_expires_at: '2099-01-01T00:00:00.000Z',
      revoked_at: revoked,
    });
    await db
      .insertInto('refresh_tokens')
      .values([
        row('a1', 'live', null, '2026-01-01T00:00:00.000Z'),
        row('a2', 'live', null, '2026-01-02T00:00:00.000Z'),
        row('b1', 'dead', nowIso(), '2026-01-01T00:00:00.000Z'),
      ])
      .execute();
    await backfillSessions(db as never);
    await backfillSessions(db as never); // idempotent
    const sessions = await db
      .selectFrom('auth_sessions')
      .selectAll()
      .where('user_id', '=', user.id)
      .execute();
    expect(sessions).toEqual([
      expect.objectContaining({
        id: 'live',
        created_at: '2026-01-01T00:00:00.000Z',
        last_used_at: '2026-01-02T00:00:00.000Z',
        expires_at: '2099-01-01T00:00:00.000Z',
        revoked_at: null,
      }),
    ]);
  });
});

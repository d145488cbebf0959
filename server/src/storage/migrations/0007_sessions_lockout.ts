import { type Kysely, type Migration, sql } from 'kysely';

/**
 * Security hardening (issue 11): sign-in sessions as rows of their own (listed in Settings,
 * revocable one by one, checked on every request), one atomic attempt counter per e-mail for the
 * lockout, a per-user "tokens valid after" time, and provider sign-ins that link an identity to
 * a signed-in user (Settings → Connect) or carry the browser's one-time nonce.
 */
export const migration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('auth_sessions')
      .addColumn('id', 'text', (col) => col.primaryKey())
      .addColumn('user_id', 'text', (col) => col.notNull().references('users.id').onDelete('cascade'))
      .addColumn('user_agent', 'text')
      .addColumn('ip', 'text')
      .addColumn('created_at', 'text', (col) => col.notNull())
      .addColumn('last_used_at', 'text', (col) => col.notNull())
      .addColumn('expires_at', 'text', (col) => col.notNull())
      .addColumn('revoked_at', 'text')
      .execute();
    await db.schema.createIndex('auth_sessions_user_idx').on('auth_sessions').column('user_id').execute();

    // One row per normalised e-mail: failures in the running window, and the lock if any. A
    // sign-in reserves its attempt here in one statement before any hashing.
    await db.schema
      .createTable('login_attempts')
      .addColumn('email_key', 'text', (col) => col.primaryKey())
      .addColumn('failures', 'integer', (col) => col.notNull())
      .addColumn('window_ends_at', 'text', (col) => col.notNull())
      .addColumn('locked_until', 'text')
      .execute();
    await db.schema.dropTable('login_failures').execute();
    await db.schema.dropTable('login_lockouts').execute();

    await backfillSessions(db);

    await db.schema.alterTable('users').addColumn('tokens_valid_after', 'text').execute();
    await db.schema.alterTable('oidc_login_states').addColumn('link_user_id', 'text').execute();
    await db.schema.alterTable('oidc_login_states').addColumn('browser_nonce', 'text').execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.alterTable('oidc_login_states').dropColumn('browser_nonce').execute();
    await db.schema.alterTable('oidc_login_states').dropColumn('link_user_id').execute();
    await db.schema.alterTable('users').dropColumn('tokens_valid_after').execute();
    await db.schema.dropTable('login_attempts').execute();
    await db.schema.dropTable('auth_sessions').execute();
  },
};

/**
 * Every live refresh-token family becomes a session, so that people signed in before the upgrade
 * stay signed in: their next refresh gives an access token of that session. (Access tokens from
 * before carry no session and are refused; the web app refreshes once.)
 */
export async function backfillSessions(db: Kysely<unknown>): Promise<void> {
  await sql`
    insert into auth_sessions (id, user_id, user_agent, ip, created_at, last_used_at, expires_at, revoked_at)
    select family_id, min(user_id), null, null, min(created_at), max(created_at), max(family_expires_at), null
    from refresh_tokens
    where revoked_at is null and family_id not in (select id from auth_sessions)
    group by family_id
  `.execute(db);
}

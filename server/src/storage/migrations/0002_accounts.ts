import type { Kysely, Migration } from 'kysely';

/** Accounts: refresh-token families, one-time codes, failed-login counting and lockouts. */
export const migration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('refresh_tokens')
      .addColumn('id', 'text', (col) => col.primaryKey())
      .addColumn('family_id', 'text', (col) => col.notNull())
      .addColumn('user_id', 'text', (col) => col.notNull().references('users.id').onDelete('cascade'))
      .addColumn('token_hash', 'text', (col) => col.notNull().unique())
      .addColumn('single_use', 'integer', (col) => col.notNull().defaultTo(0))
      .addColumn('access_jti', 'text', (col) => col.notNull())
      .addColumn('access_issued_at', 'integer', (col) => col.notNull())
      .addColumn('access_ttl', 'integer', (col) => col.notNull())
      .addColumn('created_at', 'text', (col) => col.notNull())
      .addColumn('expires_at', 'text', (col) => col.notNull())
      .addColumn('family_expires_at', 'text', (col) => col.notNull())
      .addColumn('rotated_at', 'text')
      .addColumn('replaced_by', 'text')
      .addColumn('revoked_at', 'text')
      .execute();
    await db.schema
      .createIndex('refresh_tokens_family_idx')
      .on('refresh_tokens')
      .column('family_id')
      .execute();
    await db.schema.createIndex('refresh_tokens_user_idx').on('refresh_tokens').column('user_id').execute();

    await db.schema
      .createTable('one_time_codes')
      .addColumn('id', 'text', (col) => col.primaryKey())
      .addColumn('user_id', 'text', (col) => col.notNull().references('users.id').onDelete('cascade'))
      .addColumn('purpose', 'text', (col) => col.notNull())
      .addColumn('code_hash', 'text', (col) => col.notNull())
      .addColumn('attempts', 'integer', (col) => col.notNull().defaultTo(0))
      .addColumn('created_at', 'text', (col) => col.notNull())
      .addColumn('expires_at', 'text', (col) => col.notNull())
      .addColumn('used_at', 'text')
      .addColumn('burned_at', 'text')
      .execute();
    await db.schema
      .createIndex('one_time_codes_user_purpose_idx')
      .on('one_time_codes')
      .columns(['user_id', 'purpose', 'created_at'])
      .execute();

    await db.schema
      .createTable('login_failures')
      .addColumn('id', 'text', (col) => col.primaryKey())
      .addColumn('email_key', 'text', (col) => col.notNull())
      .addColumn('failed_at', 'text', (col) => col.notNull())
      .execute();
    await db.schema
      .createIndex('login_failures_email_idx')
      .on('login_failures')
      .columns(['email_key', 'failed_at'])
      .execute();

    await db.schema
      .createTable('login_lockouts')
      .addColumn('email_key', 'text', (col) => col.primaryKey())
      .addColumn('locked_until', 'text', (col) => col.notNull())
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('login_lockouts').execute();
    await db.schema.dropTable('login_failures').execute();
    await db.schema.dropTable('one_time_codes').execute();
    await db.schema.dropTable('refresh_tokens').execute();
  },
};

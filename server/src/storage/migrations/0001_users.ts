import type { Kysely, Migration } from 'kysely';

export const migration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('users')
      .addColumn('id', 'text', (col) => col.primaryKey())
      .addColumn('email', 'text', (col) => col.notNull().unique())
      .addColumn('user_name', 'text', (col) => col.notNull())
      .addColumn('user_name_key', 'text', (col) => col.notNull().unique())
      .addColumn('first_name', 'text', (col) => col.notNull())
      .addColumn('last_name', 'text', (col) => col.notNull())
      .addColumn('password_hash', 'text')
      .addColumn('role', 'text', (col) => col.notNull())
      .addColumn('email_confirmed', 'integer', (col) => col.notNull().defaultTo(0))
      .addColumn('two_factor_enabled', 'integer', (col) => col.notNull().defaultTo(0))
      .addColumn('lockout_enabled', 'integer', (col) => col.notNull().defaultTo(0))
      .addColumn('lockout_reason', 'text')
      .addColumn('lockout_until', 'text')
      .addColumn('profile_picture', 'text')
      .addColumn('created_at', 'text', (col) => col.notNull())
      .addColumn('updated_at', 'text', (col) => col.notNull())
      .execute();
    await db.schema.createIndex('users_role_idx').on('users').column('role').execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('users').execute();
  },
};

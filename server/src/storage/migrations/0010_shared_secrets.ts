import type { Kysely, Migration } from 'kysely';

/**
 * Secrets every instance on one database must share (the generated AUTH_SECRET): an instance
 * started without AUTH_SECRET signs and checks tokens with the one kept here.
 */
export const migration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('shared_secrets')
      .addColumn('name', 'text', (col) => col.primaryKey())
      .addColumn('value', 'text', (col) => col.notNull())
      .addColumn('created_at', 'text', (col) => col.notNull())
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('shared_secrets').execute();
  },
};

import type { Kysely, Migration } from 'kysely';

export const migration: Migration = {
  async up(db: Kysely<unknown>) {
    // One counting window per key (e.g. "auth:<client address>"), shared by every instance.
    await db.schema
      .createTable('rate_limit_windows')
      .addColumn('key', 'text', (col) => col.primaryKey())
      .addColumn('hits', 'integer', (col) => col.notNull())
      .addColumn('ends_at', 'text', (col) => col.notNull())
      .execute();
    await db.schema
      .createIndex('rate_limit_windows_ends_idx')
      .on('rate_limit_windows')
      .column('ends_at')
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('rate_limit_windows').execute();
  },
};

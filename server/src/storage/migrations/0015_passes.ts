import type { Kysely, Migration } from 'kysely';

/** Guest passes (docs/passes.md#storage): looked up by the hash of their token. */
export const migration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('passes')
      .addColumn('id', 'text', (col) => col.primaryKey())
      .addColumn('token_hash', 'text', (col) => col.notNull().unique())
      .addColumn('label', 'text')
      .addColumn('level', 'text', (col) => col.notNull())
      .addColumn('rooms', 'text', (col) => col.notNull())
      .addColumn('devices', 'text', (col) => col.notNull())
      .addColumn('starts_at', 'text')
      .addColumn('ends_at', 'text')
      .addColumn('schedule', 'text')
      .addColumn('paused', 'integer', (col) => col.notNull().defaultTo(0))
      .addColumn('revoked_at', 'text')
      // A pass goes with the account that made it: it never outlives its creator's say.
      .addColumn('created_by', 'text', (col) => col.notNull().references('users.id').onDelete('cascade'))
      .addColumn('created_at', 'text', (col) => col.notNull())
      .addColumn('updated_at', 'text', (col) => col.notNull())
      .execute();
    await db.schema.createIndex('passes_created_idx').on('passes').columns(['created_at', 'id']).execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('passes').execute();
  },
};

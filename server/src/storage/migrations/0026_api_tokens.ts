import type { Kysely, Migration } from 'kysely';

/** API tokens (docs/api.md#api-tokens): looked up by the hash of their secret. */
export const migration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('api_tokens')
      .addColumn('id', 'text', (col) => col.primaryKey())
      .addColumn('secret_hash', 'text', (col) => col.notNull().unique())
      // A token acts for its owner and never outlives the account.
      .addColumn('owner_id', 'text', (col) => col.notNull().references('users.id').onDelete('cascade'))
      .addColumn('name', 'text', (col) => col.notNull())
      .addColumn('scope', 'text', (col) => col.notNull())
      .addColumn('rooms', 'text', (col) => col.notNull())
      .addColumn('devices', 'text', (col) => col.notNull())
      .addColumn('created_at', 'text', (col) => col.notNull())
      .addColumn('expires_at', 'text')
      .addColumn('last_used_at', 'text')
      .addColumn('last_used_ip', 'text')
      .addColumn('revoked_at', 'text')
      .execute();
    await db.schema.createIndex('api_tokens_owner_idx').on('api_tokens').columns(['owner_id']).execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('api_tokens').execute();
  },
};

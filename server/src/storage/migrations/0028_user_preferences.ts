import type { Kysely, Migration } from 'kysely';

/** Each person's own settings of the app (docs/api.md#preferences): one row, made on the first change. */
export const migration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('user_preferences')
      .addColumn('user_id', 'text', (col) => col.primaryKey().references('users.id').onDelete('cascade'))
      .addColumn('hide_examples', 'integer', (col) => col.notNull().defaultTo(0))
      .addColumn('updated_at', 'text', (col) => col.notNull())
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('user_preferences').execute();
  },
};

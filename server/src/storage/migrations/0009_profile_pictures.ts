import type { Kysely, Migration } from 'kysely';

/**
 * Profile pictures in the database instead of $DATA_DIR/pictures, so that every instance on one
 * database serves every picture. A user's picture goes with the user. Files an instance still has
 * in its DATA_DIR are moved in by that instance when it starts (the pictures module): a migration
 * runs once, on one instance, and sees only that instance's folder.
 */
export const migration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('profile_pictures')
      // The random name users.profile_picture holds (32 hex digits and the extension).
      .addColumn('name', 'text', (col) => col.primaryKey())
      .addColumn('user_id', 'text', (col) => col.notNull().references('users.id').onDelete('cascade'))
      .addColumn('content_type', 'text', (col) => col.notNull())
      // bytea on PostgreSQL; on SQLite any declared type stores a blob as it is.
      .addColumn('data', 'bytea', (col) => col.notNull())
      .addColumn('created_at', 'text', (col) => col.notNull())
      .execute();
    await db.schema
      .createIndex('profile_pictures_user_idx')
      .on('profile_pictures')
      .column('user_id')
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('profile_pictures').execute();
  },
};

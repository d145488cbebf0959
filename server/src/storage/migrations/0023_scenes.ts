import type { Kysely, Migration } from 'kysely';

/** Scenes (docs/automations.md#storage): a named set of device targets, optionally in a room. */
export const migration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('scenes')
      .addColumn('id', 'text', (col) => col.primaryKey())
      .addColumn('name', 'text', (col) => col.notNull())
      .addColumn('icon', 'text')
      // A room's deletion leaves its scenes, unassigned.
      .addColumn('room_id', 'text', (col) => col.references('rooms.id').onDelete('set null'))
      // JSON array of {device_id, state}: a removed device's target stays (its step reads "device removed").
      .addColumn('targets', 'text', (col) => col.notNull())
      .addColumn('created_by', 'text', (col) => col.references('users.id').onDelete('set null'))
      .addColumn('created_at', 'text', (col) => col.notNull())
      .addColumn('updated_at', 'text', (col) => col.notNull())
      .execute();
    await db.schema.createIndex('scenes_room_idx').on('scenes').columns(['room_id', 'name']).execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('scenes').execute();
  },
};

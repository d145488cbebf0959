import type { Kysely, Migration } from 'kysely';

/** Rooms, floors, each device's room, and each user's favourites (docs/rooms.md). */
export const migration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('floors')
      .addColumn('id', 'text', (col) => col.primaryKey())
      .addColumn('name', 'text', (col) => col.notNull())
      // Lower-cased name: floor names are unique case-insensitively.
      .addColumn('name_key', 'text', (col) => col.notNull().unique())
      .addColumn('position', 'integer', (col) => col.notNull())
      .addColumn('created_at', 'text', (col) => col.notNull())
      .addColumn('updated_at', 'text', (col) => col.notNull())
      .execute();
    await db.schema
      .createTable('rooms')
      .addColumn('id', 'text', (col) => col.primaryKey())
      .addColumn('name', 'text', (col) => col.notNull())
      .addColumn('name_key', 'text', (col) => col.notNull())
      .addColumn('icon', 'text', (col) => col.notNull())
      .addColumn('position', 'integer', (col) => col.notNull())
      .addColumn('floor_id', 'text', (col) => col.references('floors.id'))
      // floor_id, or '' without a floor: room names are unique per floor (NULLs never clash in an index).
      .addColumn('floor_scope', 'text', (col) => col.notNull())
      .addColumn('created_at', 'text', (col) => col.notNull())
      .addColumn('updated_at', 'text', (col) => col.notNull())
      .execute();
    await db.schema
      .createIndex('rooms_floor_name_idx')
      .on('rooms')
      .columns(['floor_scope', 'name_key'])
      .unique()
      .execute();
    // A device is in at most one room; room_assigned: someone has assigned it (its name's
    // suggestion is no longer offered).
    await db.schema.alterTable('devicehub_devices').addColumn('room_id', 'text').execute();
    await db.schema
      .alterTable('devicehub_devices')
      .addColumn('room_assigned', 'integer', (col) => col.notNull().defaultTo(0))
      .execute();
    await db.schema
      .createIndex('devicehub_devices_room_idx')
      .on('devicehub_devices')
      .column('room_id')
      .execute();
    await db.schema
      .createTable('favourites')
      .addColumn('user_id', 'text', (col) => col.notNull().references('users.id').onDelete('cascade'))
      .addColumn('device_id', 'text', (col) =>
        col.notNull().references('devicehub_devices.id').onDelete('cascade'),
      )
      .addColumn('position', 'integer', (col) => col.notNull())
      .addPrimaryKeyConstraint('favourites_pk', ['user_id', 'device_id'])
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('favourites').execute();
    await db.schema.dropIndex('devicehub_devices_room_idx').execute();
    await db.schema.alterTable('devicehub_devices').dropColumn('room_assigned').execute();
    await db.schema.alterTable('devicehub_devices').dropColumn('room_id').execute();
    await db.schema.dropTable('rooms').execute();
    await db.schema.dropTable('floors').execute();
  },
};

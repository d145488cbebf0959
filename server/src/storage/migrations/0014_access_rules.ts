import type { Kysely, Migration } from 'kysely';

/**
 * Access rules (docs/access.md): per account, a level for a room and for a device (which overrides
 * its room's). A rule goes with its account, its room and its device (foreign keys, cascading).
 */
export const migration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('access_room_rules')
      .addColumn('user_id', 'text', (col) => col.notNull().references('users.id').onDelete('cascade'))
      .addColumn('room_id', 'text', (col) => col.notNull().references('rooms.id').onDelete('cascade'))
      .addColumn('level', 'text', (col) => col.notNull())
      .addColumn('updated_at', 'text', (col) => col.notNull())
      .addPrimaryKeyConstraint('access_room_rules_pk', ['user_id', 'room_id'])
      .execute();
    await db.schema.createIndex('access_room_rules_room').on('access_room_rules').column('room_id').execute();
    await db.schema
      .createTable('access_device_rules')
      .addColumn('user_id', 'text', (col) => col.notNull().references('users.id').onDelete('cascade'))
      .addColumn('device_id', 'text', (col) =>
        col.notNull().references('devicehub_devices.id').onDelete('cascade'),
      )
      .addColumn('level', 'text', (col) => col.notNull())
      .addColumn('updated_at', 'text', (col) => col.notNull())
      .addPrimaryKeyConstraint('access_device_rules_pk', ['user_id', 'device_id'])
      .execute();
    await db.schema
      .createIndex('access_device_rules_device')
      .on('access_device_rules')
      .column('device_id')
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('access_device_rules').execute();
    await db.schema.dropTable('access_room_rules').execute();
  },
};

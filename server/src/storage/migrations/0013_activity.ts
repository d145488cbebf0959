import type { Kysely, Migration } from 'kysely';

/** The activity log (docs/activity.md#storage): read newest first, by person, device, room or kind. */
export const migration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('activity')
      .addColumn('id', 'text', (col) => col.primaryKey())
      .addColumn('at', 'text', (col) => col.notNull())
      .addColumn('actor_type', 'text', (col) => col.notNull())
      .addColumn('actor_id', 'text')
      .addColumn('actor_label', 'text', (col) => col.notNull())
      .addColumn('ip', 'text')
      .addColumn('client', 'text')
      .addColumn('kind', 'text', (col) => col.notNull())
      .addColumn('device_id', 'text')
      .addColumn('room_id', 'text')
      .addColumn('detail', 'text', (col) => col.notNull())
      .addColumn('result', 'text', (col) => col.notNull())
      .execute();
    // Newest first (and pruning, oldest first); each filter walks its own index in time order.
    await db.schema.createIndex('activity_at').on('activity').columns(['at', 'id']).execute();
    for (const column of ['actor_id', 'device_id', 'room_id', 'kind']) {
      await db.schema
        .createIndex(`activity_${column}_at`)
        .on('activity')
        .columns([column, 'at', 'id'])
        .execute();
    }
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('activity').execute();
  },
};

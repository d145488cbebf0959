import type { Kysely, Migration } from 'kysely';

const BUCKET_TABLES = ['history_5m', 'history_1h'] as const;

/** Every recorded reading, its 5-minute and hourly buckets, exclusions and gaps (docs/history.md#storage). */
export const migration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('history_series')
      .addColumn('id', 'integer', (col) => col.primaryKey())
      .addColumn('device_id', 'text', (col) => col.notNull())
      .addColumn('property', 'text', (col) => col.notNull())
      .addColumn('type', 'text', (col) => col.notNull())
      .addUniqueConstraint('history_series_device_property', ['device_id', 'property'])
      .execute();
    await db.schema
      .createTable('history_raw')
      .addColumn('series_id', 'integer', (col) => col.notNull())
      .addColumn('t', 'bigint', (col) => col.notNull())
      .addColumn('num', 'double precision')
      .addColumn('bool', 'integer')
      .addColumn('text', 'text')
      .execute();
    await db.schema
      .createIndex('history_raw_series_t')
      .on('history_raw')
      .columns(['series_id', 't'])
      .execute();
    // Roll-ups and pruning go through time across every series.
    await db.schema.createIndex('history_raw_t').on('history_raw').column('t').execute();
    for (const table of BUCKET_TABLES) {
      await db.schema
        .createTable(table)
        .addColumn('series_id', 'integer', (col) => col.notNull())
        .addColumn('t', 'bigint', (col) => col.notNull())
        .addColumn('min', 'double precision')
        .addColumn('max', 'double precision')
        .addColumn('mean', 'double precision')
        .addColumn('last_num', 'double precision')
        .addColumn('last_bool', 'integer')
        .addColumn('last_text', 'text')
        .addColumn('count', 'integer', (col) => col.notNull())
        .addPrimaryKeyConstraint(`${table}_pk`, ['series_id', 't'])
        .execute();
      await db.schema.createIndex(`${table}_t`).on(table).column('t').execute();
    }
    await db.schema
      .createTable('history_exclusions')
      .addColumn('device_id', 'text', (col) => col.notNull())
      .addColumn('property', 'text', (col) => col.notNull())
      .addPrimaryKeyConstraint('history_exclusions_pk', ['device_id', 'property'])
      .execute();
    await db.schema
      .createTable('history_progress')
      .addColumn('name', 'text', (col) => col.primaryKey())
      .addColumn('t', 'bigint', (col) => col.notNull())
      .execute();
    await db.schema
      .createTable('history_gaps')
      .addColumn('device_id', 'text', (col) => col.notNull())
      .addColumn('t', 'bigint', (col) => col.notNull())
      .execute();
    await db.schema
      .createIndex('history_gaps_device_t')
      .on('history_gaps')
      .columns(['device_id', 't'])
      .execute();
  },
  async down(db: Kysely<unknown>) {
    for (const table of [
      'history_gaps',
      'history_progress',
      'history_exclusions',
      ...BUCKET_TABLES,
      'history_raw',
      'history_series',
    ]) {
      await db.schema.dropTable(table).execute();
    }
  },
};

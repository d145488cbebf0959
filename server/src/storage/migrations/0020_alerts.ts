import type { Kysely, Migration } from 'kysely';

/**
 * Alerts (docs/alerts.md#storage): the household's rule settings, devices nobody wants alerts for,
 * incidents (one open per rule and subject: `open_key` is unique while set, null once resolved, so
 * several instances open each once) and conditions waiting for their time (a device offline since).
 */
export const migration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('alert_settings')
      .addColumn('id', 'text', (col) => col.primaryKey())
      .addColumn('settings', 'text', (col) => col.notNull())
      .addColumn('updated_at', 'text', (col) => col.notNull())
      .execute();
    await db.schema
      .createTable('alert_mutes')
      .addColumn('device_id', 'text', (col) =>
        col.primaryKey().references('devicehub_devices.id').onDelete('cascade'),
      )
      .addColumn('muted_by', 'text', (col) => col.references('users.id').onDelete('set null'))
      .addColumn('muted_at', 'text', (col) => col.notNull())
      .execute();
    await db.schema
      .createTable('alert_incidents')
      .addColumn('id', 'text', (col) => col.primaryKey())
      .addColumn('rule', 'text', (col) => col.notNull())
      .addColumn('subject', 'text', (col) => col.notNull())
      .addColumn('device_id', 'text', (col) => col.references('devicehub_devices.id').onDelete('cascade'))
      .addColumn('open_key', 'text', (col) => col.unique())
      .addColumn('severity', 'text', (col) => col.notNull())
      .addColumn('detail', 'text', (col) => col.notNull())
      .addColumn('version', 'integer', (col) => col.notNull())
      .addColumn('opened_at', 'text', (col) => col.notNull())
      .addColumn('updated_at', 'text', (col) => col.notNull())
      .addColumn('resolved_at', 'text')
      .addColumn('acknowledged_at', 'text')
      .addColumn('acknowledged_by', 'text')
      .addColumn('next_repeat_at', 'text')
      .execute();
    await db.schema
      .createIndex('alert_incidents_subject')
      .on('alert_incidents')
      .columns(['rule', 'subject', 'resolved_at'])
      .execute();
    await db.schema
      .createIndex('alert_incidents_repeat')
      .on('alert_incidents')
      .column('next_repeat_at')
      .execute();
    await db.schema
      .createTable('alert_conditions')
      .addColumn('rule', 'text', (col) => col.notNull())
      .addColumn('subject', 'text', (col) => col.notNull())
      .addColumn('since', 'text', (col) => col.notNull())
      .addPrimaryKeyConstraint('alert_conditions_pk', ['rule', 'subject'])
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('alert_conditions').execute();
    await db.schema.dropTable('alert_incidents').execute();
    await db.schema.dropTable('alert_mutes').execute();
    await db.schema.dropTable('alert_settings').execute();
  },
};

import type { Kysely, Migration } from 'kysely';

/**
 * Automations (docs/automations.md#storage): the rule as JSON, its owner, and `next_run`, the next
 * scheduled fire in UTC, indexed so that every instance finds what is due with one query.
 */
export const migration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('automations')
      .addColumn('id', 'text', (col) => col.primaryKey())
      .addColumn('name', 'text', (col) => col.notNull())
      .addColumn('enabled', 'integer', (col) => col.notNull())
      .addColumn('mode', 'text', (col) => col.notNull())
      .addColumn('catch_up', 'text', (col) => col.notNull())
      .addColumn('triggers', 'text', (col) => col.notNull())
      .addColumn('conditions', 'text', (col) => col.notNull())
      .addColumn('actions', 'text', (col) => col.notNull())
      // An automation acts for its owner and goes with their account.
      .addColumn('owner_id', 'text', (col) => col.notNull().references('users.id').onDelete('cascade'))
      .addColumn('next_run', 'text')
      .addColumn('last_run_at', 'text')
      .addColumn('last_run_status', 'text')
      .addColumn('paused_reason', 'text')
      // Bumped by every run start: on PostgreSQL the update locks the row, so starts queue up.
      .addColumn('run_seq', 'integer', (col) => col.notNull().defaultTo(0))
      .addColumn('created_at', 'text', (col) => col.notNull())
      .addColumn('updated_at', 'text', (col) => col.notNull())
      .execute();
    await db.schema.createIndex('automations_next_run_idx').on('automations').columns(['next_run']).execute();
    await db.schema.createIndex('automations_name_idx').on('automations').columns(['name', 'id']).execute();
    // Household-wide settings of automations (the location an admin sets).
    await db.schema
      .createTable('automation_settings')
      .addColumn('name', 'text', (col) => col.primaryKey())
      .addColumn('value', 'text', (col) => col.notNull())
      .addColumn('updated_at', 'text', (col) => col.notNull())
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('automation_settings').execute();
    await db.schema.dropTable('automations').execute();
  },
};

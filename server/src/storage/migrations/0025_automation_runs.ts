import type { Kysely, Migration } from 'kysely';

/**
 * What makes automations exactly-once across instances and restarts (docs/automations.md#guarantees):
 * a claim per scheduled fire (unique `(automation_id, fire_at)`), runs with their persisted place
 * and deadline, and `for` deadlines of state triggers.
 */
export const migration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('automation_fires')
      .addColumn('automation_id', 'text', (col) =>
        col.notNull().references('automations.id').onDelete('cascade'),
      )
      .addColumn('fire_at', 'text', (col) => col.notNull())
      .addColumn('claimed_at', 'text', (col) => col.notNull())
      .addColumn('claimed_by', 'text', (col) => col.notNull())
      .addPrimaryKeyConstraint('automation_fires_pk', ['automation_id', 'fire_at'])
      .execute();
    await db.schema
      .createTable('automation_runs')
      .addColumn('id', 'text', (col) => col.primaryKey())
      .addColumn('automation_id', 'text', (col) =>
        col.notNull().references('automations.id').onDelete('cascade'),
      )
      .addColumn('started_at', 'text', (col) => col.notNull())
      .addColumn('finished_at', 'text')
      .addColumn('trigger', 'text', (col) => col.notNull())
      .addColumn('status', 'text', (col) => col.notNull())
      .addColumn('steps', 'text', (col) => col.notNull())
      // The next action to run, and when (a `wait`'s deadline); null when over.
      .addColumn('position', 'integer', (col) => col.notNull().defaultTo(0))
      .addColumn('resume_at', 'text')
      // Which instance runs it, until when: another takes it over after that.
      .addColumn('lease_owner', 'text')
      .addColumn('lease_until', 'text')
      .addColumn('version', 'integer', (col) => col.notNull().defaultTo(0))
      // Whether it counts for the loop breaker (scheduled fires do not).
      .addColumn('counted', 'integer', (col) => col.notNull().defaultTo(1))
      .execute();
    await db.schema
      .createIndex('automation_runs_automation_idx')
      .on('automation_runs')
      .columns(['automation_id', 'started_at'])
      .execute();
    await db.schema
      .createIndex('automation_runs_resume_idx')
      .on('automation_runs')
      .columns(['status', 'resume_at'])
      .execute();
    await db.schema
      .createTable('automation_pending')
      .addColumn('id', 'text', (col) => col.primaryKey())
      .addColumn('automation_id', 'text', (col) =>
        col.notNull().references('automations.id').onDelete('cascade'),
      )
      // Which trigger of the automation, and the device it watches.
      .addColumn('trigger_index', 'integer', (col) => col.notNull())
      .addColumn('device_id', 'text', (col) => col.notNull())
      .addColumn('since', 'text', (col) => col.notNull())
      .addColumn('due_at', 'text', (col) => col.notNull())
      .addColumn('description', 'text', (col) => col.notNull())
      .execute();
    await db.schema
      .createIndex('automation_pending_key')
      .on('automation_pending')
      .columns(['automation_id', 'trigger_index', 'device_id'])
      .unique()
      .execute();
    await db.schema
      .createIndex('automation_pending_due_idx')
      .on('automation_pending')
      .columns(['due_at'])
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('automation_pending').execute();
    await db.schema.dropTable('automation_runs').execute();
    await db.schema.dropTable('automation_fires').execute();
  },
};

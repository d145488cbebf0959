import type { Kysely, Migration } from 'kysely';

/**
 * A device's online flag beside its last state and last_seen in the registry, so that every
 * instance on one database shows the same (the state writer keeps it; docs/devicehub.md).
 */
export const migration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('devicehub_devices')
      .addColumn('online', 'integer', (col) => col.notNull().defaultTo(0))
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.alterTable('devicehub_devices').dropColumn('online').execute();
  },
};

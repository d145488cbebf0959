import type { Kysely, Migration } from 'kysely';

/** Devices that leave Zigbee2MQTT's list are kept (same id, name) and marked removed instead of deleted. */
export const migration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('devicehub_devices').addColumn('removed_at', 'text').execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.alterTable('devicehub_devices').dropColumn('removed_at').execute();
  },
};

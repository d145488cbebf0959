import type { Kysely, Migration } from 'kysely';

/**
 * The person an `api` actor acts for (docs/activity.md#entries): their id and name as they were,
 * so a `user` reads their own tokens' entries and every reader sees whose script it was.
 */
export const migration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('activity').addColumn('actor_owner_id', 'text').execute();
    await db.schema.alterTable('activity').addColumn('actor_owner_label', 'text').execute();
    await db.schema
      .createIndex('activity_actor_owner_idx')
      .on('activity')
      .columns(['actor_owner_id', 'at', 'id'])
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropIndex('activity_actor_owner_idx').execute();
    await db.schema.alterTable('activity').dropColumn('actor_owner_label').execute();
    await db.schema.alterTable('activity').dropColumn('actor_owner_id').execute();
  },
};

import { type Kysely, type Migration, sql } from 'kysely';

/**
 * Device states in a table of their own (docs/devicehub.md#performance): the state writer's flush
 * rewrote each device's whole registry row, metadata included, with every state. The stored
 * states, last sightings and online flags move over; the registry keeps names and metadata.
 */
export const migration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('devicehub_states')
      .addColumn('device_id', 'text', (col) =>
        col.primaryKey().references('devicehub_devices.id').onDelete('cascade'),
      )
      .addColumn('state', 'text', (col) => col.notNull().defaultTo('{}'))
      .addColumn('last_seen', 'text')
      .addColumn('online', 'integer', (col) => col.notNull().defaultTo(0))
      .execute();
    await sql`insert into devicehub_states (device_id, state, last_seen, online)
      select id, state, last_seen, online from devicehub_devices`.execute(db);
    for (const column of ['state', 'last_seen', 'online'])
      await db.schema.alterTable('devicehub_devices').dropColumn(column).execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema
      .alterTable('devicehub_devices')
      .addColumn('state', 'text', (col) => col.notNull().defaultTo('{}'))
      .execute();
    await db.schema.alterTable('devicehub_devices').addColumn('last_seen', 'text').execute();
    await db.schema
      .alterTable('devicehub_devices')
      .addColumn('online', 'integer', (col) => col.notNull().defaultTo(0))
      .execute();
    await sql`update devicehub_devices set
      state = s.state, last_seen = s.last_seen, online = s.online
      from devicehub_states as s where s.device_id = devicehub_devices.id`.execute(db);
    await db.schema.dropTable('devicehub_states').execute();
  },
};

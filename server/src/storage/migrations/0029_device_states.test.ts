import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestDatabase, testDatabases } from '../../../test/databases.js';
import { DevicesRepository } from '../../devicehub/devicehub.repository.js';
import type { Storage } from '../database.js';
import { migrateToLatest, migratorOf } from '../migrate.js';

// An install that stored its devices' states in the registry's rows keeps them when it starts
// with the states in a table of their own, and going back brings them home again.

describe.each(testDatabases())('migration 0029 (device states) on $name', ({ create }) => {
  let database: TestDatabase;
  let storage: Storage;
  // biome-ignore lint/suspicious/noExplicitAny: the schema before the migration is not today's
  let db: Kysely<any>;
  const now = '2026-11-30T06:00:00.000Z';
  const row = (id: string, name: string, state: object, lastSeen: string | null, online: number) => ({
    id,
    external_id: `0x${id}`,
    protocol: 'zigbee2mqtt',
    name,
    metadata: JSON.stringify({ model: 'LED1545G12', capabilities: [], inputs: [] }),
    state: JSON.stringify(state),
    last_seen: lastSeen,
    created_at: now,
    updated_at: now,
    online,
  });

  beforeAll(async () => {
    database = await create();
    storage = database.open();
    db = storage.db;
    const before = await (await migratorOf(db)).migrateTo('0028_user_preferences');
    expect(before.error).toBeUndefined();
    await db
      .insertInto('devicehub_devices')
      .values([
        row('a1', 'Desk lamp', { state: 'ON', brightness: 120 }, '2026-11-30T05:59:00.000Z', 1),
        row('b2', 'Hall sensor', {}, null, 0),
      ])
      .execute();
    expect(await migrateToLatest(db)).toEqual(['0029_device_states']);
  });
  afterAll(async () => {
    await storage?.close();
    await database?.drop();
  });

  it('moves each state, last sighting and online flag into the state table', async () => {
    const states = await db
      .selectFrom('devicehub_states')
      .select(['device_id', 'state', 'last_seen', 'online'])
      .orderBy('device_id')
      .execute();
    expect(states).toEqual([
      {
        device_id: 'a1',
        state: '{"state":"ON","brightness":120}',
        last_seen: '2026-11-30T05:59:00.000Z',
        online: 1,
      },
      { device_id: 'b2', state: '{}', last_seen: null, online: 0 },
    ]);
    const devices = await new DevicesRepository(db).all();
    const lamp = devices.find((device) => device.id === 'a1');
    expect(lamp?.state).toEqual({ state: 'ON', brightness: 120 });
    expect(lamp?.last_seen).toBe('2026-11-30T05:59:00.000Z');
    expect(await new DevicesRepository(db).presence()).toContainEqual({
      id: 'a1',
      online: true,
      last_seen: '2026-11-30T05:59:00.000Z',
    });
  });

  it('leaves the registry rows without the columns it moved', async () => {
    await expect(db.selectFrom('devicehub_devices').select('state').execute()).rejects.toThrow(/state/);
  });

  it('goes back: the states return to the registry rows and the table goes', async () => {
    const down = await (await migratorOf(db)).migrateDown();
    expect(down.error).toBeUndefined();
    const rows = await db
      .selectFrom('devicehub_devices')
      .select(['id', 'state', 'last_seen', 'online'])
      .orderBy('id')
      .execute();
    expect(rows).toEqual([
      {
        id: 'a1',
        state: '{"state":"ON","brightness":120}',
        last_seen: '2026-11-30T05:59:00.000Z',
        online: 1,
      },
      { id: 'b2', state: '{}', last_seen: null, online: 0 },
    ]);
    await expect(db.selectFrom('devicehub_states').selectAll().execute()).rejects.toThrow(/devicehub_states/);
    expect(await migrateToLatest(db)).toEqual(['0029_device_states']);
  });
});

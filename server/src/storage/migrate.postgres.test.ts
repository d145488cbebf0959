import { PostgresIntrospector, sql } from 'kysely';
import pg from 'pg';
import { afterEach, expect, it } from 'vitest';
import { postgresDatabase, type TestDatabase } from '../../test/databases.js';
import { describeWithService } from '../../test/services.js';
import type { Storage } from './database.js';
import { migrateToLatest } from './migrate.js';
import { migrations } from './migrations/index.js';

// docs/devicehub.md#several-instances: instances start at once on one PostgreSQL, which may hold
// other installs' schemas (and other tests'). What happens elsewhere in the database meanwhile (a
// schema dropped, another instance's migration dropping a table) must not stop one starting: the
// migration's checks read Hearth's own schema as their snapshot shows it (storage/pg-introspector.ts).

describeWithService('TEST_DATABASE_URL', 'migrations beside other schemas on PostgreSQL', (url) => {
  const opened: Storage[] = [];
  const databases: TestDatabase[] = [];
  const admins: pg.Client[] = [];
  const dropLast: (() => Promise<void>)[] = [];
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((storage) => storage.close()));
    await Promise.all(admins.splice(0).map((client) => client.end()));
    await Promise.all(databases.splice(0).map((database) => database.drop()));
    for (const drop of dropLast.splice(0)) await drop();
  });
  const database = async () => {
    const made = await postgresDatabase(url);
    databases.push(made);
    return made;
  };
  const open = (made: TestDatabase) => {
    const storage = made.open();
    opened.push(storage);
    return storage;
  };
  const admin = async () => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    admins.push(client);
    return client;
  };

  // A database of its own: Kysely's introspector, the reference below, reads every schema of its
  // database and fails when a test running beside it alters a table between its two reads.
  const ownDatabase = async () => {
    const client = await admin();
    const name = `hearth_introspect_${crypto.randomUUID().replaceAll('-', '').slice(0, 12)}`;
    await client.query(`create database ${name}`);
    dropLast.push(async () => {
      const dropper = new pg.Client({ connectionString: url });
      await dropper.connect();
      await dropper.query(`drop database if exists ${name} with (force)`);
      await dropper.end();
    });
    const own = new URL(url);
    own.pathname = `/${name}`;
    return own.toString();
  };

  it('reads its tables from its snapshot: a schema and a table dropped while it reads do not fail it', async () => {
    const isolated = await ownDatabase();
    const ours = await postgresDatabase(isolated);
    databases.push(ours);
    const storage = open(ours);
    await migrateToLatest(storage.db);
    const other = await postgresDatabase(isolated);
    databases.push(other);
    const client = new pg.Client({ connectionString: isolated });
    await client.connect();
    admins.push(client);
    const schema = (await sql<{ s: string }>`select current_schema() as s`.execute(storage.db)).rows[0]!.s;
    await client.query(`create table ${schema}.leaving (id serial primary key)`);
    await client.query(`create table ${other.appOptions().pgSchema}.theirs (id serial primary key)`);
    // Left alone, it reads what Kysely's own introspector reads of this schema.
    const kyselys = (await new PostgresIntrospector(storage.db).getTables()).filter(
      (table) => table.schema === schema,
    );
    expect(await storage.db.introspection.getTables()).toEqual(kyselys);

    // The checks' statement began before the drops were committed: one snapshot, the drops after it.
    const tables = await storage.db.connection().execute(async (connection) => {
      await sql`begin isolation level repeatable read`.execute(connection);
      try {
        await sql`select 1`.execute(connection);
        await client.query(`drop table ${schema}.leaving`);
        await other.drop();
        return await connection.introspection.getTables({ withInternalKyselyTables: true });
      } finally {
        await sql`rollback`.execute(connection);
      }
    });
    const names = tables.map((table) => table.name);
    expect(names).toEqual(expect.arrayContaining(['kysely_migration', 'users', 'leaving']));
    expect(tables.every((table) => table.schema === schema)).toBe(true);
    expect(tables.find((table) => table.name === 'leaving')?.columns).toEqual([
      expect.objectContaining({ name: 'id', isAutoIncrementing: true, isNullable: false }),
    ]);
    expect(names).not.toContain('theirs');
  });

  it('three instances start at once on one schema while other schemas come and go: each starts, every migration once', async () => {
    const client = await admin();
    let churning = true;
    let dropped = 0;
    // Another install's (or another test's) schema, made and dropped over and over.
    const churn = (async () => {
      while (churning) {
        const name = `hearth_gone_${crypto.randomUUID().replaceAll('-', '').slice(0, 12)}`;
        await client.query(`create schema ${name}`);
        for (let i = 0; i < 10; i++) await client.query(`create table ${name}.t${i} (id serial primary key)`);
        await client.query(`drop schema ${name} cascade`);
        dropped++;
      }
    })();
    try {
      for (let round = 0; round < 3; round++) {
        const shared = await database();
        const instances = [open(shared), open(shared), open(shared)];
        const applied = await Promise.all(instances.map((storage) => migrateToLatest(storage.db)));
        expect(applied.flat().sort()).toEqual(Object.keys(migrations).sort());
      }
    } finally {
      churning = false;
      await churn;
    }
    expect(dropped).toBeGreaterThan(0);
  }, 120_000);
});

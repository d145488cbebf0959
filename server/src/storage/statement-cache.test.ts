import { createRequire } from 'node:module';
import type BetterSqlite3 from 'better-sqlite3';
import { Kysely, SqliteDialect, sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { StatementCache } from './statement-cache.js';

const SQLite = createRequire(import.meta.url)('better-sqlite3') as typeof BetterSqlite3;

describe('StatementCache', () => {
  let sqlite: BetterSqlite3.Database;
  let prepared: string[];
  const open = (limit?: number) => {
    sqlite = new SQLite(':memory:');
    prepared = [];
    const counting = {
      prepare: (text: string) => {
        prepared.push(text);
        return sqlite.prepare(text);
      },
      close: () => sqlite.close(),
    };
    const cache = new StatementCache(counting, limit);
    return {
      cache,
      db: new Kysely<{ t: { id: number; v: string } }>({ dialect: new SqliteDialect({ database: cache }) }),
    };
  };
  afterEach(() => {
    if (sqlite.open) sqlite.close();
  });

  it('prepares a query once and still returns fresh rows each time', async () => {
    const { db } = open();
    await sql`create table t (id integer primary key, v text)`.execute(db);
    await db.insertInto('t').values({ id: 1, v: 'before' }).execute();
    const read = () => db.selectFrom('t').select('v').where('id', '=', 1).executeTakeFirstOrThrow();
    expect(await read()).toEqual({ v: 'before' });
    await db.updateTable('t').set({ v: 'after' }).where('id', '=', 1).execute();
    expect(await read()).toEqual({ v: 'after' });
    const reads = prepared.filter((text) => text.startsWith('select "v"'));
    expect(reads).toHaveLength(1);
  });

  it('keeps only the most recently used statements', async () => {
    const { db, cache } = open(3);
    const query = (n: number) => sql`select ${sql.lit(n)} as n`.execute(db);
    for (const n of [1, 2, 3]) await query(n);
    await query(1); // 1 is now the most recent: 2 goes first
    await query(4);
    expect(cache.size).toBe(3);
    prepared.length = 0;
    await query(1);
    await query(2);
    expect(prepared).toEqual(['select 2 as n']);
  });

  it('follows a schema change with the statements it keeps', async () => {
    const { db } = open();
    await sql`create table t (id integer primary key, v text)`.execute(db);
    await db.insertInto('t').values({ id: 1, v: 'x' }).execute();
    const all = () => db.selectFrom('t').selectAll().execute();
    expect(await all()).toEqual([{ id: 1, v: 'x' }]);
    await sql`alter table t add column extra text default 'new'`.execute(db);
    expect(await all()).toEqual([{ id: 1, v: 'x', extra: 'new' }]);
  });
});

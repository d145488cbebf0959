import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { configureSqlite, sqliteKysely } from './database.js';

// SQLite only: the server's connection and a second writer (the history worker's) on one file.
describe("the server's SQLite connection, waiting for another writer's lock", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-lock-'));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  const open = (name: string, maxWaitMs?: number) => {
    const file = path.join(dir, name);
    const server = new Database(file);
    configureSqlite(server);
    const db = sqliteKysely(server, { waitOffThread: maxWaitMs === undefined ? {} : { maxWaitMs } });
    const other = new Database(file);
    configureSqlite(other);
    other.exec('create table t (id integer primary key, v text)');
    return { db, other };
  };

  /** Counts the event loop's turns while `work` runs. */
  const turnsDuring = async <T>(work: Promise<T>) => {
    let turns = 0;
    const timer = setInterval(() => turns++, 2);
    try {
      return { result: await work, turns };
    } finally {
      clearInterval(timer);
    }
  };

  it('keeps the event loop turning while it waits, and writes once the other commits', async () => {
    const { db, other } = open('wait.db');
    other.exec('begin immediate');
    other.prepare('insert into t (v) values (?)').run('theirs');
    // The other writer commits in 60 ms: from this same thread, which a connection blocked
    // inside SQLite's busy handler would never let run (it would fail after its timeout).
    setTimeout(() => other.exec('commit'), 60);
    const started = Date.now();
    const { turns } = await turnsDuring(
      db.transaction().execute(async (trx) => {
        await sql`insert into t (v) values ('ours')`.execute(trx);
      }),
    );
    await sql`insert into t (v) values ('autocommit')`.execute(db);
    expect(Date.now() - started).toBeGreaterThanOrEqual(55);
    expect(turns).toBeGreaterThan(5);
    const rows = await sql<{ v: string }>`select v from t order by id`.execute(db);
    expect(rows.rows.map((row) => row.v)).toEqual(['theirs', 'ours', 'autocommit']);
    await db.destroy();
    other.close();
  });

  it('gives up with SQLITE_BUSY after its longest wait, and works again once the lock is free', async () => {
    const { db, other } = open('give-up.db', 150);
    other.exec('begin immediate');
    const started = Date.now();
    const { result, turns } = await turnsDuring(
      sql`insert into t (v) values ('late')`.execute(db).then(
        () => undefined,
        (error: { code?: string }) => error.code,
      ),
    );
    expect(result).toBe('SQLITE_BUSY');
    expect(Date.now() - started).toBeGreaterThanOrEqual(150);
    expect(turns).toBeGreaterThan(10);
    other.exec('rollback');
    await sql`insert into t (v) values ('now')`.execute(db);
    const rows = await sql<{ v: string }>`select v from t`.execute(db);
    expect(rows.rows).toEqual([{ v: 'now' }]);
    await db.destroy();
    other.close();
  });
});

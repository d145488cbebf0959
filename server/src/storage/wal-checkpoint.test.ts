import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { runScript, sourceUrl } from '../../test/run-script.js';
import { openStorage } from './database.js';
import { startWalCheckpointer } from './wal-checkpoint.js';

// SQLite only: PostgreSQL checkpoints on its own, outside Hearth's process.
describe('the SQLite log, checkpointed off the event loop', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-wal-'));
  const file = path.join(dir, 'hearth.db');
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  const walBytes = () => (fs.existsSync(`${file}-wal`) ? fs.statSync(`${file}-wal`).size : 0);
  const ROWS = 300;
  const ROUNDS = 40;
  const body = (round: number, id: number) => `${round}:${id}:${'x'.repeat(1000)}`;

  it('stays bounded under a second-by-second stream of writes, and the data is intact after a restart', {
    timeout: 60_000,
  }, async () => {
    const storage = openStorage({ sqliteFile: file, walCheckpointMs: 50 });
    const { db } = storage;
    await sql`create table states (id integer primary key, body text not null)`.execute(db);
    let largest = 0;
    // Like the device states: the same rows rewritten, one transaction a round (~300 KB each,
    // 12 MB in all: without checkpoints the log would hold every round).
    for (let round = 0; round < ROUNDS; round++) {
      await db.transaction().execute(async (trx) => {
        for (let id = 0; id < ROWS; id++) {
          await sql`insert into states (id, body) values (${id}, ${body(round, id)})
            on conflict (id) do update set body = excluded.body`.execute(trx);
        }
      });
      largest = Math.max(largest, walBytes());
      // Four rounds a second (the devices' writer commits once a second): the checkpointer, a
      // thread of its own, gets its turns even on a machine busy with other work.
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    const written = ROUNDS * ROWS * 1000;
    expect(largest).toBeGreaterThan(0);
    expect(largest).toBeLessThan(written / 4);
    await storage.close();

    const reopened = openStorage({ sqliteFile: file });
    const rows = await sql<{ id: number; body: string }>`select id, body from states order by id`.execute(
      reopened.db,
    );
    expect(rows.rows).toHaveLength(ROWS);
    expect(rows.rows.every((row) => row.body === body(ROUNDS - 1, row.id))).toBe(true);
    const integrity = await sql<{ integrity_check: string }>`pragma integrity_check`.execute(reopened.db);
    expect(integrity.rows).toEqual([{ integrity_check: 'ok' }]);
    await reopened.close();
  });

  it('lets a script that writes and closes the database finish: the close waits for the last checkpoint', () => {
    const run = runScript(
      `import { openStorage } from ${JSON.stringify(sourceUrl('storage/database.ts'))};
const storage = openStorage({ sqliteFile: \`\${process.argv[2]}/hearth.db\`, walCheckpointMs: 20 });
await storage.db.schema.createTable('t').addColumn('id', 'integer').execute();
await new Promise((resolve) => setTimeout(resolve, 100));
await storage.close();
console.log('closed');
`,
    );
    // Before: the process ended with 13 (a top-level await never settled) and printed nothing.
    expect(run).toEqual({ status: 0, out: 'closed' });
  });

  it('runs its worker only while the database is being written', async () => {
    const require = createRequire(import.meta.url);
    const Database = require('better-sqlite3');
    const other = path.join(dir, 'quiet.db');
    const db = new Database(other);
    db.pragma('journal_mode = WAL');
    db.pragma('wal_autocheckpoint = 0');
    db.exec('create table t (id integer primary key, body text)');
    const checkpointer = startWalCheckpointer({
      file: other,
      driver: require.resolve('better-sqlite3'),
      intervalMs: 50,
      idleMs: 150,
    });
    const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
    const until = async (check: () => boolean) => {
      for (let i = 0; i < 100 && !check(); i++) await wait(50);
      return check();
    };
    try {
      const write = db.prepare('insert or replace into t (id, body) values (?, ?)');
      let writing = true;
      const writer = (async () => {
        for (let round = 0; writing; round++) {
          write.run(round % 50, 'y'.repeat(2000));
          await wait(5);
        }
      })();
      expect(await until(() => checkpointer.running())).toBe(true);
      writing = false;
      await writer;
      // Nothing more to checkpoint: the worker (about 10 MB) ends.
      expect(await until(() => !checkpointer.running())).toBe(true);
    } finally {
      await checkpointer.close();
      db.close();
    }
  });
});

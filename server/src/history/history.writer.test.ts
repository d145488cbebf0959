import os from 'node:os';
import { Writable } from 'node:stream';
import { sql } from 'kysely';
import pino from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { sqliteDatabase, type TestDatabase, testDatabases, useTestStorage } from '../../test/databases.js';
import { runScript, sourceUrl } from '../../test/run-script.js';
import { waitFor } from '../../test/wait.js';
import { BACKGROUND_NICE } from '../lifecycle/background-thread.js';
import type { Storage } from '../storage/database.js';
import { migrateToLatest } from '../storage/migrate.js';
import { ReadingBatch } from './history.batch.js';
import { HistoryRecorder } from './history.recorder.js';
import { HistoryRepository } from './history.repository.js';
import {
  GuardedStore,
  HistoryWorker,
  type HistoryWorkerOptions,
  type RawStore,
  repositoryStore,
} from './history.writer.js';
import { testPlug } from './history-test-kit.js';

// docs/history.md#recording on SQLite: the recorder's batches go through the history worker, a
// thread with a connection of its own; what it writes is what the server's connection reads.

const plug = testPlug();

const until = async (check: () => boolean, ms = 10_000) => {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
};

describe('the history worker (SQLite)', () => {
  let database: TestDatabase;
  let storage: Storage;
  let repository: HistoryRepository;
  let worker: HistoryWorker | undefined;
  let recorder: HistoryRecorder | undefined;
  let logged: { level: number; msg: string }[];

  beforeAll(async () => {
    database = sqliteDatabase();
    storage = database.open();
    await migrateToLatest(storage.db);
    repository = new HistoryRepository(storage.db);
  });
  afterEach(async () => {
    await recorder?.close();
    await worker?.close();
    await sql`delete from history_raw`.execute(storage.db);
    await sql`delete from history_gaps`.execute(storage.db);
  });
  afterAll(async () => {
    await storage.close();
    await database.drop();
  });

  async function setup(options: Partial<HistoryWorkerOptions> = {}) {
    logged = [];
    const log = pino(
      { level: 'info' },
      new Writable({
        write(line, _encoding, done) {
          logged.push(JSON.parse(String(line)));
          done();
        },
      }),
    );
    worker = new HistoryWorker({ file: storage.sqliteFile!, log, restartMs: 20, ...options });
    recorder = new HistoryRecorder({
      repository,
      store: worker,
      log,
      heartbeatMs: 60_000,
      flushIntervalMs: 60_000,
    });
    recorder.setExclusions([]);
    await worker.start();
    return { worker, recorder };
  }
  const values = async (property: string) => {
    const series = await repository.series(plug.id, property);
    return series ? (await repository.raw(series.id, 0, Date.now() + 1000)).map((r) => r.v) : [];
  };

  it('writes numbers, on/off, enums and gaps that the server then reads', async () => {
    const { recorder } = await setup();
    const from = Date.now();
    recorder.stateReported(plug, { state: 'ON', power: 12.5, mode: 'eco' }, false);
    recorder.onlineChanged(plug, false);
    recorder.stateReported(plug, { state: 'OFF', power: 0, mode: 'boost' }, false);
    await recorder.flush();
    expect(await values('state')).toEqual([true, false]);
    expect(await values('power')).toEqual([12.5, 0]);
    expect(await values('mode')).toEqual(['eco', 'boost']);
    expect(await repository.gaps(plug.id, from, Date.now() + 1)).toHaveLength(1);
  });

  it('loses nothing when the worker crashes: it is logged, started again, and the readings are written', async () => {
    const { recorder, worker } = await setup();
    recorder.stateReported(plug, { power: 1 }, false);
    const flushing = recorder.flush();
    await worker.crash();
    await flushing;
    expect(logged.some((l) => l.level === 50 && l.msg.includes('history worker stopped'))).toBe(true);
    recorder.stateReported(plug, { power: 2 }, false);
    await until(() => worker.running);
    await recorder.flush();
    expect(new Set(await values('power'))).toEqual(new Set([1, 2]));
  });

  it('ends its thread once idle, without an error, and the next batch starts another', async () => {
    const { recorder, worker } = await setup({ idleEndMs: 100 });
    recorder.stateReported(plug, { power: 1 }, false);
    await recorder.flush();
    await until(() => !worker.running);
    recorder.stateReported(plug, { power: 2 }, false);
    await recorder.flush();
    expect(worker.running).toBe(true);
    expect(await values('power')).toEqual([1, 2]);
    expect(logged.filter((l) => l.level >= 40)).toEqual([]);
  });

  it('is started again after wakeMs once it ended idle, for the roll-ups and pruning', async () => {
    const { recorder, worker } = await setup({ idleEndMs: 100, wakeMs: 300 });
    recorder.stateReported(plug, { power: 1 }, false);
    await recorder.flush();
    await until(() => !worker.running);
    await until(() => worker.running);
  });

  it('keeps what the database refused and writes it once it accepts again', async () => {
    const { recorder } = await setup();
    recorder.stateReported(plug, { power: 1 }, false);
    await recorder.flush();
    await sql`alter table history_raw rename to history_raw_away`.execute(storage.db);
    recorder.stateReported(plug, { power: 2 }, false);
    await recorder.flush();
    expect(logged.some((l) => l.level === 40 && l.msg === 'history recording failed; retrying')).toBe(true);
    await sql`alter table history_raw_away rename to history_raw`.execute(storage.db);
    recorder.stateReported(plug, { power: 3 }, false);
    await recorder.flush();
    expect(await values('power')).toEqual([1, 2, 3]);
  });

  it.runIf(process.platform === 'linux')(
    "yields the CPU to the server's thread: its own thread, not the server's, runs at a background priority",
    async () => {
      const server = os.getPriority();
      const { worker } = await setup();
      expect(worker.niceValue).toBe(BACKGROUND_NICE);
      expect(os.getPriority()).toBe(server);
    },
  );

  it('writes what is buffered when closed, then ends the thread', async () => {
    const { recorder, worker } = await setup();
    for (let i = 0; i < 1234; i++) recorder.stateReported(plug, { power: i }, false);
    await recorder.close();
    await worker.close();
    expect(worker.running).toBe(false);
    expect(await values('power')).toHaveLength(1234);
  });

  it('closes in a process with nothing else left to do, instead of the process ending first', () => {
    const run = runScript(
      `import { HistoryWorker } from ${JSON.stringify(sourceUrl('history/history.writer.ts'))};
const quiet = { info() {}, warn() {}, error() {}, debug() {} };
const worker = new HistoryWorker({ file: \`\${process.argv[2]}/hearth.db\`, log: quiet });
await worker.start();
await worker.close();
console.log('closed');
`,
    );
    // Before: the process ended with 13 (a top-level await never settled) and printed nothing.
    expect(run).toEqual({ status: 0, out: 'closed' });
  });
});

// docs/history.md#recording on both databases: what the recorder writes goes through a
// GuardedStore (on SQLite around the worker, on PostgreSQL around the server's connection).
describe.each(testDatabases())('what the recorder writes on $name', ({ name, create }) => {
  const test = useTestStorage(create);
  let worker: HistoryWorker | undefined;
  let recorder: HistoryRecorder | undefined;
  let logged: { level: number; msg: string }[];
  afterEach(async () => {
    await recorder?.close();
    await worker?.close();
    worker = undefined;
    for (const table of ['history_raw', 'history_gaps', 'history_series'])
      await sql`delete from ${sql.table(table)}`.execute(test.storage.db);
  });

  function setup(failAfterMs?: number) {
    logged = [];
    const log = pino(
      { level: 'info' },
      new Writable({
        write(line, _encoding, done) {
          logged.push(JSON.parse(String(line)));
          done();
        },
      }),
    );
    const repository = new HistoryRepository(test.storage.db);
    let base: RawStore = repositoryStore(repository);
    if (name === 'sqlite') {
      worker = new HistoryWorker({ file: test.storage.sqliteFile!, log, restartMs: 20 });
      base = worker;
    }
    const store = new GuardedStore(base, { log, ...(failAfterMs === undefined ? {} : { failAfterMs }) });
    recorder = new HistoryRecorder({ repository, store, log, heartbeatMs: 60_000, flushIntervalMs: 60_000 });
    recorder.setExclusions([]);
    const values = async (property: string) => {
      const series = await repository.series(plug.id, property);
      return series ? (await repository.raw(series.id, 0, Date.now() + 1000)).map((r) => r.v) : [];
    };
    return { store, recorder, repository, values };
  }
  const warnings = (text: string) => logged.filter((line) => line.level === 40 && line.msg.includes(text));

  /** A rule of the database's that refuses some rows, as PostgreSQL refused a NUL byte. */
  async function refusing(table: string, column: string, value: string, run: () => Promise<void>) {
    const { db } = test.storage;
    await (name === 'postgres'
      ? sql`alter table ${sql.table(table)} add constraint refuse_it check (${sql.ref(column)} is distinct from ${sql.lit(value)})`
      : sql`create trigger refuse_it before insert on ${sql.table(table)} when new.${sql.ref(column)} = ${sql.lit(value)}
            begin select raise(abort, 'refused'); end`
    ).execute(db);
    try {
      await run();
    } finally {
      await (name === 'postgres'
        ? sql`alter table ${sql.table(table)} drop constraint refuse_it`
        : sql`drop trigger refuse_it`
      ).execute(db);
    }
  }

  it('drops U+0000 from texts and property names, and answers a series by the name it was asked for', async () => {
    const { store, repository } = setup();
    const [series] = await store.ensureSeries([
      { device_id: plug.id, property: 'mo\u0000de', type: 'string' },
    ]);
    expect(series).toMatchObject({ device_id: plug.id, property: 'mo\u0000de', type: 'string' });
    expect((await repository.series(plug.id, 'mode'))?.id).toBe(series!.id);
    const batch = new ReadingBatch();
    batch.push(series!.id, 1000, 'bo\u0000ost');
    await store.insertColumns(batch.columns());
    expect((await repository.raw(series!.id, 0, 2000)).map((r) => r.v)).toEqual(['boost']);
    expect(store.healthy).toBe(true);
  });

  it('writes the good readings of a batch with a bad one, sets the bad one aside once and is not failing', async () => {
    const { store, recorder, values } = setup(50);
    await refusing('history_raw', 'text', 'boost', async () => {
      recorder.stateReported(plug, { power: 1, mode: 'eco' }, false);
      recorder.stateReported(plug, { power: 2, mode: 'boost' }, false);
      recorder.stateReported(plug, { power: 3, mode: 'comfort' }, false);
      await recorder.flush();
      expect(await values('power')).toEqual([1, 2, 3]);
      expect(await values('mode')).toEqual(['eco', 'comfort']);
      recorder.stateReported(plug, { power: 4 }, false);
      await recorder.flush();
      expect(await values('power')).toEqual([1, 2, 3, 4]);
    });
    expect(warnings('set aside')).toHaveLength(1);
    expect(JSON.stringify(warnings('set aside'))).not.toContain('boost');
    expect(warnings('history recording failed')).toEqual([]);
    expect(store.healthy).toBe(true);
  });

  it('sets aside a series the database refuses and records the others', async () => {
    const { recorder, values, repository } = setup();
    await refusing('history_series', 'property', 'power', async () => {
      recorder.stateReported(plug, { state: 'ON', power: 1 }, false);
      await recorder.flush();
      recorder.stateReported(plug, { state: 'OFF', power: 2 }, false);
      await recorder.flush();
    });
    expect(await values('state')).toEqual([true, false]);
    expect(await repository.series(plug.id, 'power')).toBeUndefined();
    expect(warnings('set aside')).toHaveLength(1);
    expect(warnings('history recording failed')).toEqual([]);
  });

  it('keeps what it cannot write, is unhealthy once nothing was written for failAfterMs, and writes it all when it can', async () => {
    const { store, recorder, values } = setup(300);
    recorder.stateReported(plug, { power: 1 }, false);
    await recorder.flush();
    await sql`alter table history_raw rename to history_raw_away`.execute(test.storage.db);
    try {
      recorder.stateReported(plug, { power: 2 }, false);
      await recorder.flush();
      expect(store.healthy).toBe(true);
      await waitFor(() => !store.healthy);
    } finally {
      await sql`alter table history_raw_away rename to history_raw`.execute(test.storage.db);
    }
    recorder.stateReported(plug, { power: 3 }, false);
    await recorder.flush();
    expect(await values('power')).toEqual([1, 2, 3]);
    expect(store.healthy).toBe(true);
    expect(warnings('set aside')).toEqual([]);
  });
});

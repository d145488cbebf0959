import os from 'node:os';
import { Writable } from 'node:stream';
import { sql } from 'kysely';
import pino from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { sqliteDatabase, type TestDatabase } from '../../test/databases.js';
import { runScript, sourceUrl } from '../../test/run-script.js';
import { BACKGROUND_NICE } from '../lifecycle/background-thread.js';
import type { Storage } from '../storage/database.js';
import { migrateToLatest } from '../storage/migrate.js';
import { HistoryRecorder } from './history.recorder.js';
import { HistoryRepository } from './history.repository.js';
import { HistoryWorker, type HistoryWorkerOptions } from './history.writer.js';
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

// The history worker (docs/history.md#recording): a thread of its own, with a connection of its
// own to Hearth's SQLite file, that writes the recorder's batches and runs the roll-ups and
// pruning. better-sqlite3 runs every statement synchronously, so on the server's thread these
// held back the device stream. Started by history.writer.ts; built as dist/history.worker.js.
import { createRequire } from 'node:module';
import os from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import type { HistoryValue } from '@hearth/contracts';
import type BetterSqlite3 from 'better-sqlite3';
import type { Logger } from 'pino';
import { runInBackground } from '../lifecycle/background-thread.js';
import { configureSqlite, sqliteKysely } from '../storage/database.js';
import { HistoryMaintenance } from './history.maintenance.js';
import { HistoryRepository, type RawRow } from './history.repository.js';
import type { WorkerReply, WorkerRequest, WorkerSetup } from './history.writer.js';

const setup = workerData as WorkerSetup;
runInBackground();
const port = parentPort!;
const Driver = createRequire(import.meta.url)(setup.driver) as typeof BetterSqlite3;
const sqlite = new Driver(setup.file);
configureSqlite(sqlite);
// Checkpoints are the checkpointer's (storage/wal-checkpoint.ts), as on the server's connection.
sqlite.pragma('wal_autocheckpoint = 0');
const db = sqliteKysely(sqlite);
const repository = new HistoryRepository(db);

const fields = (value: unknown): unknown => {
  if (!(value instanceof Error)) return value;
  const { code } = value as { code?: unknown };
  return { message: value.message, stack: value.stack, ...(code === undefined ? {} : { code }) };
};
const logAt =
  (level: 'info' | 'warn' | 'error') =>
  (object: Record<string, unknown>, message: string): void => {
    const plain = Object.fromEntries(Object.entries(object).map(([k, v]) => [k, fields(v)]));
    port.postMessage({ log: { level, object: plain, message } } satisfies WorkerReply);
  };
const log = { info: logAt('info'), warn: logAt('warn'), error: logAt('error') } as unknown as Logger;

const maintenance = setup.maintenance
  ? new HistoryMaintenance({ repository, log, retention: setup.maintenance.retention })
  : undefined;
maintenance?.start();
port.postMessage({ ready: true, nice: os.getPriority() } satisfies WorkerReply);

/** The readings of a batch, back from their columns. */
function rowsOf(request: Extract<WorkerRequest, { op: 'raw' }>): RawRow[] {
  const rows: RawRow[] = new Array(request.series.length);
  let text = 0;
  for (let i = 0; i < rows.length; i++) {
    const kind = request.kind[i];
    const v: HistoryValue | null =
      kind === 1
        ? request.num[i]!
        : kind === 2
          ? false
          : kind === 3
            ? true
            : kind === 4
              ? request.texts[text++]!
              : null;
    rows[i] = { series_id: request.series[i]!, t: request.t[i]!, v };
  }
  return rows;
}

async function handle(request: WorkerRequest): Promise<void> {
  switch (request.op) {
    case 'gaps':
      await repository.addGaps(request.gaps);
      return;
    case 'raw': {
      await repository.insertRaw(rowsOf(request));
      if (request.series.length > 0) {
        let oldest = Number.POSITIVE_INFINITY;
        for (const t of request.t) if (t < oldest) oldest = t;
        maintenance?.written(oldest);
      }
      return;
    }
    case 'close':
      await maintenance?.stop();
      await db.destroy();
      return;
  }
}

// One request at a time, in order (the recorder waits for each anyway).
let queue = Promise.resolve();
port.on('message', (request: WorkerRequest) => {
  queue = queue.then(async () => {
    let reply: WorkerReply;
    try {
      await handle(request);
      reply = { id: request.id };
    } catch (error) {
      reply = { id: request.id, error: fields(error) as { message: string } };
    }
    port.postMessage(reply);
    if (request.op === 'close') port.close();
  });
});

// The history worker (docs/history.md#recording): a thread of its own, with a connection of its
// own to Hearth's SQLite file, that writes the recorder's batches and runs the roll-ups and
// pruning. better-sqlite3 runs every statement synchronously, so on the server's thread these
// held back the device stream. Started by history.writer.ts; built as dist/history.worker.js.
import { createRequire } from 'node:module';
import os from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import type BetterSqlite3 from 'better-sqlite3';
import type { Logger } from 'pino';
import { runInBackground } from '../lifecycle/background-thread.js';
import { configureSqlite, sqliteKysely } from '../storage/database.js';
import { rowsOf } from './history.batch.js';
import { HistoryMaintenance } from './history.maintenance.js';
import { HistoryRepository } from './history.repository.js';
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

// Idle for idleEndMs (no batch, and the roll-ups and pruning with nothing to do): say so, once;
// the server then ends this thread unless a request is on its way (history.writer.ts).
let lastRequest = Date.now();
let saidIdle = false;
const idleCheck = setInterval(
  () => {
    if (saidIdle || Date.now() - lastRequest < setup.idleEndMs || !(maintenance?.idle ?? true)) return;
    saidIdle = true;
    port.postMessage({ idle: true } satisfies WorkerReply);
  },
  Math.min(setup.idleEndMs, 5000),
);
idleCheck.unref();

async function handle(request: WorkerRequest): Promise<unknown> {
  switch (request.op) {
    case 'gaps':
      await repository.addGaps(request.gaps);
      return;
    case 'series':
      return repository.ensureSeries(request.wanted);
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
  lastRequest = Date.now();
  saidIdle = false;
  if (request.op === 'close') clearInterval(idleCheck);
  queue = queue.then(async () => {
    let reply: WorkerReply;
    try {
      const value = await handle(request);
      reply = value === undefined ? { id: request.id } : { id: request.id, value };
    } catch (error) {
      reply = { id: request.id, error: fields(error) as { message: string } };
    }
    port.postMessage(reply);
    if (request.op === 'close') port.close();
  });
});

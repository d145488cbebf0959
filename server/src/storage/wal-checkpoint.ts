import fs from 'node:fs';
import { Worker } from 'node:worker_threads';
import { BACKGROUND_NICE } from '../lifecycle/background-thread.js';

/**
 * Checkpoints a SQLite database's write-ahead log off the event loop. SQLite's automatic
 * checkpoint runs inside the write that crosses 1000 pages, on the thread that writes: with the
 * device states flushed every second it stalled the event loop 25–82 ms now and then (the device
 * stream's p99, docs/devicehub.md#performance). The main connection turns it off
 * (`wal_autocheckpoint = 0`) and a worker thread, with a connection of its own to the same file,
 * runs `PRAGMA wal_checkpoint(PASSIVE)` every `intervalMs`: it never waits for the writer, and
 * the writer starts the log over once a checkpoint has caught up, so the log stays bounded.
 *
 * A worker weighs about 10 MB of memory, so it runs only while the database is being written:
 * the log's file is looked at every `intervalMs` (one stat), a worker starts when it has changed,
 * and it ends itself once its checkpoints have found nothing new for `idleMs`. It runs at a
 * background thread's priority.
 */
export interface WalCheckpointer {
  /** Whether a worker is running now (tests). */
  running(): boolean;
  close(): Promise<void>;
}

// CommonJS, evaluated in the worker: the driver comes by its resolved path (the server is bundled).
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
if (process.platform === 'linux') {
  try {
    require('node:os').setPriority(workerData.nice);
  } catch {}
}
const Database = require(workerData.driver);
const db = new Database(workerData.file);
db.pragma('busy_timeout = 1000');
let last = -1;
let quiet = 0;
const checkpoint = () => {
  try {
    const [result] = db.pragma('wal_checkpoint(PASSIVE)');
    const log = result ? result.log : 0;
    quiet = log === last ? quiet + 1 : 0;
    last = log;
  } catch (error) {
    parentPort.postMessage({ error: String(error && error.message ? error.message : error) });
  }
};
const stop = () => {
  clearInterval(timer);
  db.close();
  parentPort.close();
};
const timer = setInterval(() => {
  checkpoint();
  if (quiet >= workerData.idleRounds) stop();
}, workerData.intervalMs);
checkpoint();
parentPort.on('message', (message) => {
  if (message !== 'close') return;
  checkpoint();
  stop();
});
`;

export function startWalCheckpointer(options: {
  file: string;
  /** The resolved path of better-sqlite3. */
  driver: string;
  intervalMs: number;
  /** How long a worker stays after the last change it checkpointed (ms). */
  idleMs?: number;
  onError?: (message: string) => void;
}): WalCheckpointer {
  const wal = `${options.file}-wal`;
  let worker: Worker | undefined;
  let exited: Promise<void> = Promise.resolve();
  let seen = '';
  let failed = false;
  let closed = false;

  const start = () => {
    const current = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: {
        file: options.file,
        driver: options.driver,
        intervalMs: options.intervalMs,
        idleRounds: Math.max(1, Math.ceil((options.idleMs ?? 10_000) / options.intervalMs)),
        // A background thread (lifecycle/background-thread.ts), written out: this source is eval'd.
        nice: BACKGROUND_NICE,
      },
    });
    current.unref();
    worker = current;
    current.on('message', (message: { error?: string }) => {
      // One line, not one per interval: a checkpoint that fails (e.g. disk full) fails again.
      if (message.error && !failed) options.onError?.(message.error);
      if (message.error) failed = true;
    });
    current.on('error', (error) => options.onError?.(error.message));
    exited = new Promise<void>((resolve) =>
      current.once('exit', () => {
        if (worker === current) worker = undefined;
        resolve();
      }),
    );
  };

  // The log changed since the last look (size and time): someone writes, a worker is needed.
  const look = () => {
    fs.stat(wal, (error, stats) => {
      if (error || closed) return;
      const now = `${stats.size}:${stats.mtimeMs}`;
      if (now !== seen && stats.size > 0 && !worker) start();
      seen = now;
    });
  };
  const timer = setInterval(look, options.intervalMs);
  timer.unref();

  return {
    running: () => worker !== undefined,
    close: async () => {
      closed = true;
      clearInterval(timer);
      // Held until it has exited: unref'd, it let a process with nothing else to do (a script that
      // opens the database, writes and closes it) end before the last checkpoint and the close.
      worker?.ref();
      worker?.postMessage('close');
      await exited;
    },
  };
}

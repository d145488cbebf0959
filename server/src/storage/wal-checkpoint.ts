import { Worker } from 'node:worker_threads';

/**
 * Checkpoints a SQLite database's write-ahead log off the event loop. SQLite's automatic
 * checkpoint runs inside the write that crosses 1000 pages, on the thread that writes: with the
 * device states flushed every second it stalled the event loop 25–82 ms now and then (the device
 * stream's p99, docs/devicehub.md#performance). The main connection turns it off
 * (`wal_autocheckpoint = 0`) and this worker, with a connection of its own to the same file, runs
 * `PRAGMA wal_checkpoint(PASSIVE)` every `intervalMs`: it never waits for the writer, and the
 * writer starts the log over once a checkpoint has caught up, so the log stays bounded.
 */
export interface WalCheckpointer {
  close(): Promise<void>;
}

// CommonJS, evaluated in the worker: the driver comes by its resolved path (the server is bundled).
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file);
db.pragma('busy_timeout = 1000');
const checkpoint = () => {
  try {
    db.pragma('wal_checkpoint(PASSIVE)');
  } catch (error) {
    parentPort.postMessage({ error: String(error && error.message ? error.message : error) });
  }
};
const timer = setInterval(checkpoint, workerData.intervalMs);
parentPort.on('message', (message) => {
  if (message !== 'close') return;
  clearInterval(timer);
  checkpoint();
  db.close();
  parentPort.close();
});
`;

export function startWalCheckpointer(options: {
  file: string;
  /** The resolved path of better-sqlite3. */
  driver: string;
  intervalMs: number;
  onError?: (message: string) => void;
}): WalCheckpointer {
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: { file: options.file, driver: options.driver, intervalMs: options.intervalMs },
  });
  worker.unref();
  let failed = false;
  worker.on('message', (message: { error?: string }) => {
    // One line, not one per interval: a checkpoint that fails (e.g. disk full) fails again.
    if (message.error && !failed) options.onError?.(message.error);
    if (message.error) failed = true;
  });
  worker.on('error', (error) => options.onError?.(error.message));
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  return {
    close: async () => {
      worker.postMessage('close');
      await exited;
    },
  };
}

import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { Logger } from 'pino';
import {
  cannotWriteNow,
  type SplitOutcome,
  storableText,
  WRITER_AWAY,
  WriterHealth,
  writeSplitting,
} from '../storage/batches.js';
import { type RawColumns, ReadingBatch, rowsOf } from './history.batch.js';
import type { Retention } from './history.maintenance.js';
import type { HistoryRepository, RawRow, Series } from './history.repository.js';

/** Where the recorder's batches go: the repository itself, or the history worker. */
export type RawStore = Pick<HistoryRepository, 'addGaps' | 'ensureSeries'> & {
  insertColumns(columns: RawColumns): Promise<void>;
};

/** The recorder's store on the server's own connection (PostgreSQL; on SQLite, the history worker). */
export function repositoryStore(repository: HistoryRepository): RawStore {
  return {
    addGaps: (gaps) => repository.addGaps(gaps),
    ensureSeries: (wanted) => repository.ensureSeries(wanted),
    insertColumns: (columns) => repository.insertRaw(rowsOf(columns)),
  };
}

export interface GuardedStoreOptions {
  log: Logger;
  /** After this long without writing (ms), the store is not healthy (/healthz names `history`). */
  failAfterMs?: number;
  now?: () => number;
}

/** How many refused series are remembered (not asked for again). */
const MAX_REFUSED_SERIES = 10_000;
/** How many of the rows set aside a warning names. */
const NAMED_IN_WARNING = 5;

const seriesKey = (series: { device_id: string; property: string }) =>
  `${series.device_id}\u0000${series.property}`;

const copyOf = (columns: RawColumns): RawColumns => ({
  series: columns.series.slice(),
  t: columns.t.slice(),
  num: columns.num.slice(),
  kind: columns.kind.slice(),
  texts: [...columns.texts],
});

function columnsOf(rows: readonly RawRow[]): RawColumns {
  const batch = new ReadingBatch();
  for (const row of rows) batch.push(row.series_id, row.t, row.v);
  return batch.columns();
}

/**
 * docs/history.md#recording: what the recorder writes, as every database takes it. Text loses
 * U+0000 (PostgreSQL refuses it; a series is still answered by the name it was asked for), and a
 * batch the database refuses is written in halves, each row that is at fault set aside and named
 * in one warning (`writeSplitting`): a series, a reading or a gap; a series set aside is not asked
 * for again. What cannot be written now is rejected, so the recorder keeps its batch and tries
 * again. `healthy` turns false once nothing could be written for `failAfterMs`.
 */
export class GuardedStore implements RawStore {
  private readonly health: WriterHealth;
  private readonly refusedSeries = new Set<string>();

  constructor(
    private readonly store: RawStore,
    private readonly options: GuardedStoreOptions,
  ) {
    const now = options.now ?? (() => Date.now());
    this.health = new WriterHealth(options.failAfterMs, now);
  }

  /** False once writing has failed for `failAfterMs` (docs/api.md#health). */
  get healthy(): boolean {
    return this.health.healthy;
  }

  async addGaps(gaps: readonly { device_id: string; t: number }[]): Promise<void> {
    if (gaps.length === 0) return;
    const storable = gaps.map(({ device_id, t }) => ({ device_id: storableText(device_id), t }));
    const outcome = await writeSplitting(storable, (part) => this.store.addGaps(part));
    this.settle('gaps', outcome, (gap) => gap);
  }

  async ensureSeries(wanted: readonly Omit<Series, 'id'>[]): Promise<Series[]> {
    /** The series asked for, by the key they are stored under. */
    const asked = new Map<string, Omit<Series, 'id'>[]>();
    const storable: Omit<Series, 'id'>[] = [];
    for (const series of wanted) {
      if (this.refusedSeries.has(seriesKey(series))) continue;
      const stored = {
        ...series,
        device_id: storableText(series.device_id),
        property: storableText(series.property),
      };
      const same = asked.get(seriesKey(stored));
      if (same) same.push(series);
      else {
        asked.set(seriesKey(stored), [series]);
        storable.push(stored);
      }
    }
    if (storable.length === 0) return [];
    const found: Series[] = [];
    const outcome = await writeSplitting(storable, async (part) => {
      found.push(...(await this.store.ensureSeries(part)));
    });
    for (const refused of outcome.setAside) {
      for (const series of asked.get(seriesKey(refused)) ?? []) {
        if (this.refusedSeries.size >= MAX_REFUSED_SERIES) this.refusedSeries.clear();
        this.refusedSeries.add(seriesKey(series));
      }
    }
    this.settle('series', outcome, ({ device_id, property }) => ({
      device_id,
      property: property.slice(0, 64),
    }));
    return found.flatMap((series) =>
      (asked.get(seriesKey(series)) ?? [series]).map(({ device_id, property }) => ({
        ...series,
        device_id,
        property,
      })),
    );
  }

  async insertColumns(columns: RawColumns): Promise<void> {
    if (columns.series.length === 0) return;
    const texts = columns.texts.some((text) => text.includes('\u0000'))
      ? columns.texts.map(storableText)
      : columns.texts;
    // Kept for a split: the worker takes the arrays it is sent over.
    const kept = copyOf({ ...columns, texts });
    try {
      await this.store.insertColumns({ ...columns, texts });
      this.health.wrote();
      return;
    } catch (error) {
      if (cannotWriteNow(error)) {
        this.health.failed();
        throw error;
      }
    }
    const outcome = await writeSplitting(rowsOf(kept), (part) => this.store.insertColumns(columnsOf(part)));
    this.settle('readings', outcome, ({ series_id, t }) => ({ series_id, t }));
  }

  /**
   * Notes the outcome for `healthy`, names the rows set aside in one warning (never their values),
   * and rejects when rows are left to retry, so the recorder keeps its batch (should some of it
   * have been written, those rows are written twice: not lost).
   */
  private settle<T>(what: string, outcome: SplitOutcome<T>, describe: (row: T) => object) {
    this.health.noteOutcome(outcome);
    if (outcome.setAside.length > 0) {
      const code = (outcome.error as { code?: unknown } | undefined)?.code;
      this.options.log.warn(
        {
          setAside: outcome.setAside.length,
          ...(typeof code === 'string' ? { code } : {}),
          [what]: outcome.setAside.slice(0, NAMED_IN_WARNING).map(describe),
        },
        `history ${what} set aside: the database refused them`,
      );
    }
    if (outcome.retry.length > 0) throw outcome.error;
  }
}

/** What the worker is started with (history.worker.ts). */
export interface WorkerSetup {
  file: string;
  /** better-sqlite3's resolved path (the server is bundled; its dependencies are not). */
  driver: string;
  /** Also runs the roll-ups and pruning, with this retention. */
  maintenance?: { retention: Retention };
  /** After this long without work the worker says it is idle (ms). */
  idleEndMs: number;
}

export type WorkerRequest = { id: number } & (
  | { op: 'gaps'; gaps: { device_id: string; t: number }[] }
  | { op: 'series'; wanted: Omit<Series, 'id'>[] }
  | ({ op: 'raw' } & RawColumns)
  | { op: 'close' }
);

export type WorkerReply =
  | {
      id: number;
      /** What the request answers (the series of `series`). */
      value?: unknown;
      error?: { message: string; code?: unknown; stack?: string };
      log?: undefined;
    }
  | {
      id?: undefined;
      log: { level: 'info' | 'warn' | 'error'; object: Record<string, unknown>; message: string };
    }
  /** Sent once the worker has opened its connection, with its thread's nice value. */
  | { id?: undefined; log?: undefined; ready: true; nice: number }
  /** Nothing to do for `idleEndMs`: the server may end the thread. */
  | { id?: undefined; log?: undefined; idle: true };

type Body = WorkerRequest extends infer R ? (R extends unknown ? Omit<R, 'id'> : never) : never;

export interface HistoryWorkerOptions extends Omit<WorkerSetup, 'driver' | 'idleEndMs'> {
  log: Logger;
  /** A worker without work for this long ends (ms); the next batch starts another. */
  idleEndMs?: number;
  /** A worker that ended idle is started again after this long, for the roll-ups and pruning (ms). */
  wakeMs?: number;
  /** The first pause before a worker that stopped unexpectedly is started again (ms); it doubles while it keeps failing. */
  restartMs?: number;
}

const MAX_RESTART_MS = 60_000;
/** Like the WAL checkpointer's: a thread costs memory (some 12 MB), and starting one takes ms. */
const IDLE_END_MS = 30_000;
const WAKE_MS = 60 * 60_000;
const CLOSE_TIMEOUT_MS = 10_000;

const here = import.meta.url;
const require = createRequire(here);

/** A worker thread running history.worker.ts, from the bundle (dist/) or, with tsx, from the sources. */
function spawn(setup: WorkerSetup): Worker {
  if (new URL(here).pathname.endsWith('.ts')) {
    // Tests and `npm run dev`: tsx compiles the worker's TypeScript as it does the server's.
    const api = pathToFileURL(path.join(path.dirname(require.resolve('tsx')), 'esm/api/index.mjs')).href;
    const entry = new URL('./history.worker.ts', here).href;
    return new Worker(
      `import(${JSON.stringify(api)}).then((tsx) => tsx.tsImport(${JSON.stringify(entry)}, ${JSON.stringify(api)}));`,
      { eval: true, workerData: setup },
    );
  }
  // The bundle: dist/main.js starts dist/history.worker.js (server/build.mjs).
  return new Worker(new URL('./history.worker.js', here), { workerData: setup });
}

/** An error that says the worker is not there now (batches wait: `cannotWriteNow`). */
const away = (error: Error) => Object.assign(error, { code: WRITER_AWAY });

const toError = (fields: { message: string; code?: unknown; stack?: string }) =>
  Object.assign(new Error(fields.message), {
    ...(fields.code === undefined ? {} : { code: fields.code }),
    ...(fields.stack ? { stack: fields.stack } : {}),
  });

/**
 * docs/history.md#recording: the server's side of the history worker. It stores the recorder's
 * batches (a RawStore) by posting them to the worker as columns, and answers once the worker has
 * committed them, or rejects (the recorder keeps the batch and tries again). A worker that stops
 * (a crash, an error it did not catch) is logged and started again after a pause; what it had not
 * committed is rejected, so nothing is lost. Started on first use, by `start()` or by `startAfter()`.
 */
export class HistoryWorker implements RawStore {
  private worker: Worker | undefined;
  private exited: Promise<void> = Promise.resolve();
  private readonly pending = new Map<
    number,
    { worker: Worker; resolve: (value: unknown) => void; reject: (error: Error) => void }
  >();
  /** Workers ending because they were idle, until they have. */
  private readonly retiring = new Set<Promise<void>>();
  private nextId = 1;
  private closed = false;
  private failures = 0;
  private restartAt = 0;
  private restart: NodeJS.Timeout | undefined;
  private started: Promise<void> = Promise.resolve();

  constructor(private readonly options: HistoryWorkerOptions) {}

  /** Whether a worker thread is running now (tests). */
  get running() {
    return this.worker !== undefined;
  }

  /** The nice value the running worker's thread reported when it started (tests). */
  niceValue: number | undefined;

  /** Starts the worker; resolves once it has opened its connection (or has stopped, logged). */
  async start(): Promise<void> {
    this.ensure();
    await this.started;
  }

  /**
   * Starts the worker after `delayMs` unless a batch has started it before. Its roll-ups and
   * pruning need not run the moment the server starts, and a server that records nothing in
   * that time (most test apps) never pays for a second thread.
   */
  startAfter(delayMs: number): void {
    if (this.closed || this.worker) return;
    clearTimeout(this.restart);
    this.restart = setTimeout(() => {
      if (!this.closed && !this.worker) this.ensure();
    }, delayMs);
    this.restart.unref();
  }

  async addGaps(gaps: readonly { device_id: string; t: number }[]): Promise<void> {
    if (gaps.length === 0) return;
    await this.request({ op: 'gaps', gaps: [...gaps] });
  }

  /** The series of these (device, property) pairs, created where missing, by the worker's connection. */
  async ensureSeries(wanted: readonly Omit<Series, 'id'>[]): Promise<Series[]> {
    if (wanted.length === 0) return [];
    return (await this.request({ op: 'series', wanted: [...wanted] })) as Series[];
  }

  async insertColumns(columns: RawColumns): Promise<void> {
    if (columns.series.length === 0) return;
    await this.request({ op: 'raw', ...columns }, [
      columns.series.buffer,
      columns.t.buffer,
      columns.num.buffer,
      columns.kind.buffer,
    ]);
  }

  private request(body: Body, transfer: ArrayBuffer[] = []): Promise<unknown> {
    if (this.closed) return Promise.reject(away(new Error('the history worker is closed')));
    // A worker that keeps failing is not started again at every flush.
    if (!this.worker && Date.now() < this.restartAt)
      return Promise.reject(away(new Error('the history worker stopped; it starts again shortly')));
    return this.send(this.ensure(), body, transfer);
  }

  private send(worker: Worker, body: Body, transfer: ArrayBuffer[] = []): Promise<unknown> {
    const id = this.nextId++;
    return new Promise<unknown>((resolve, reject) => {
      this.pending.set(id, { worker, resolve, reject });
      worker.postMessage({ ...body, id }, transfer);
    });
  }

  private ensure(): Worker {
    if (this.worker) return this.worker;
    clearTimeout(this.restart);
    const { log, file, maintenance } = this.options;
    const worker = spawn({
      file,
      driver: require.resolve('better-sqlite3'),
      ...(maintenance ? { maintenance } : {}),
      idleEndMs: this.options.idleEndMs ?? IDLE_END_MS,
    });
    let retired = false;
    // The server's close ends it; it keeps nothing alive on its own.
    worker.unref();
    this.worker = worker;
    let failure: Error | undefined;
    let ready = () => {};
    this.started = new Promise<void>((resolve) => {
      ready = resolve;
    });
    worker.on('message', (reply: WorkerReply) => {
      if ('ready' in reply) {
        this.niceValue = reply.nice;
        ready();
      } else if ('idle' in reply) retired ||= this.retire(worker);
      else this.receive(reply);
    });
    worker.on('error', (error) => {
      failure = error;
    });
    this.exited = new Promise<void>((resolve) => {
      worker.once('exit', (code) => {
        if (this.worker === worker) this.worker = undefined;
        ready();
        const stopped = failure ?? new Error(`the history worker stopped (exit code ${code})`);
        for (const [id, waiting] of this.pending) {
          if (waiting.worker !== worker) continue;
          this.pending.delete(id);
          // Whatever stopped it, the batch is not at fault: it waits for the next worker.
          waiting.reject(away(new Error('the history worker stopped', { cause: stopped })));
        }
        if (!this.closed && !retired) {
          const pause = Math.min(MAX_RESTART_MS, (this.options.restartMs ?? 1000) * 2 ** this.failures);
          if (this.failures === 0) {
            log.error({ err: stopped, exitCode: code }, 'history worker stopped; starting it again');
          }
          this.failures++;
          this.restartAt = Date.now() + pause;
          this.restart = setTimeout(() => {
            if (!this.closed && !this.worker) this.ensure();
          }, pause);
          this.restart.unref();
        }
        resolve();
      });
    });
    return worker;
  }

  /**
   * Ends a worker that said it is idle, unless a request is on its way to it: the next batch
   * starts another, and so does a timer, for the roll-ups and pruning. True if it ends.
   */
  private retire(worker: Worker): boolean {
    if (this.closed || this.worker !== worker) return false;
    for (const waiting of this.pending.values()) if (waiting.worker === worker) return false;
    this.worker = undefined;
    const exited = this.exited;
    this.retiring.add(exited);
    void exited.then(() => this.retiring.delete(exited));
    void this.end(worker);
    this.startAfter(this.options.wakeMs ?? WAKE_MS);
    return true;
  }

  /** Asks `worker` to write what it was sent and close its connection; ended if it cannot, or has not exited in time. */
  private async end(worker: Worker): Promise<void> {
    // Held until it has exited: unref'd, a process with nothing else left to do (a server whose
    // listeners have closed, a script) could end before the worker had written what it was sent.
    worker.ref();
    const timeout = setTimeout(() => void worker.terminate(), CLOSE_TIMEOUT_MS);
    timeout.unref();
    worker.once('exit', () => clearTimeout(timeout));
    try {
      await this.send(worker, { op: 'close' });
    } catch (error) {
      this.options.log.warn({ err: error }, 'history worker did not close cleanly');
      void worker.terminate();
    }
  }

  private receive(reply: Exclude<WorkerReply, { ready: true } | { idle: true }>) {
    if (reply.log) {
      const { level, object, message } = reply.log;
      const err = object.err as { message: string } | undefined;
      this.options.log[level]({ ...object, ...(err ? { err: toError(err) } : {}) }, message);
      return;
    }
    const waiting = this.pending.get(reply.id);
    if (!waiting) return;
    this.pending.delete(reply.id);
    if (reply.error) {
      waiting.reject(toError(reply.error));
      return;
    }
    if (this.failures > 0) {
      this.options.log.info({ restarts: this.failures }, 'history worker works again');
      this.failures = 0;
    }
    waiting.resolve(reply.value);
  }

  /** Ends the thread at once, as a crash would; it is started again like after one (tests). */
  async crash(): Promise<void> {
    await this.worker?.terminate();
    await this.exited;
  }

  /** Stops the roll-ups, closes the worker's connection and ends it (what was sent is written first). */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearTimeout(this.restart);
    await Promise.all(this.retiring);
    const worker = this.worker;
    if (!worker) return;
    await this.end(worker);
    await this.exited;
  }
}

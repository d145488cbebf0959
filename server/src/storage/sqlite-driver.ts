import type BetterSqlite3 from 'better-sqlite3';
import {
  CompiledQuery,
  type DatabaseConnection,
  type Driver,
  type QueryResult,
  SqliteDialect,
  type SqliteDialectConfig,
  SqliteDriver,
} from 'kysely';
import { StatementCache } from './statement-cache.js';

/** How long a statement waits for the other connection's write lock before it fails (ms). */
export const SQLITE_LOCK_WAIT_MS = 5000;

export interface SqliteDriverOptions {
  /**
   * Wait for a write lock held by another connection with timers, so the thread's event loop
   * keeps running, rather than inside SQLite (busy_timeout sleeps with the thread blocked). For
   * the server's thread, whose every blocked millisecond holds back the device stream; the
   * history worker may block. The connection is then given `busy_timeout = 0`.
   */
  waitOffThread?: { maxWaitMs?: number };
}

/**
 * Kysely's SQLite dialect, with two changes. Transactions begin with `BEGIN IMMEDIATE`: the file
 * has a second writer, the history worker (docs/history.md#recording), and a transaction that
 * read before it wrote would fail at its first write (SQLITE_BUSY, no waiting) had the other
 * connection committed in between; taking the write lock first makes it wait instead. And with
 * `waitOffThread`, a statement that finds the lock taken is tried again a little later.
 */
export class HearthSqliteDialect extends SqliteDialect {
  private readonly settings: SqliteDialectConfig;

  constructor(
    private readonly sqlite: BetterSqlite3.Database,
    private readonly options: SqliteDriverOptions = {},
  ) {
    const settings = { database: new StatementCache(sqlite) };
    super(settings);
    this.settings = settings;
  }

  override createDriver(): Driver {
    return new HearthSqliteDriver(this.settings, this.sqlite, this.options);
  }
}

class HearthSqliteDriver extends SqliteDriver {
  constructor(
    settings: SqliteDialectConfig,
    private readonly sqlite: BetterSqlite3.Database,
    private readonly options: SqliteDriverOptions,
  ) {
    super(settings);
  }

  override async init(): Promise<void> {
    await super.init();
    if (this.options.waitOffThread) this.sqlite.pragma('busy_timeout = 0');
  }

  /** Kysely's SQLite driver has one connection: it is wrapped once. */
  private waiting: WaitingConnection | undefined;

  override async acquireConnection(): Promise<DatabaseConnection> {
    const connection = await super.acquireConnection();
    const wait = this.options.waitOffThread;
    if (!wait) return connection;
    this.waiting ??= new WaitingConnection(connection, this.sqlite, wait.maxWaitMs ?? SQLITE_LOCK_WAIT_MS);
    return this.waiting;
  }

  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * A connection whose statements, when SQLite answers SQLITE_BUSY outside a transaction (nothing
 * was done: an autocommit statement or a `BEGIN IMMEDIATE`), are run again after 1, 2, 4 … 16 ms
 * until `maxWaitMs` has passed. Inside a transaction the lock is already held, so BUSY there is
 * an error as before. Kysely holds its one connection while this waits: the thread's other
 * queries queue behind it, and everything else on the event loop runs.
 */
class WaitingConnection implements DatabaseConnection {
  constructor(
    private readonly connection: DatabaseConnection,
    private readonly sqlite: BetterSqlite3.Database,
    private readonly maxWaitMs: number,
  ) {}

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    let started: number | undefined;
    let pause = 1;
    for (;;) {
      try {
        return await this.connection.executeQuery<R>(query);
      } catch (error) {
        if ((error as { code?: unknown }).code !== 'SQLITE_BUSY' || this.sqlite.inTransaction) throw error;
        started ??= Date.now();
        if (Date.now() - started >= this.maxWaitMs) throw error;
        await sleep(pause);
        pause = Math.min(pause * 2, 16);
      }
    }
  }

  streamQuery<R>(query: CompiledQuery, chunkSize?: number): AsyncIterableIterator<QueryResult<R>> {
    return this.connection.streamQuery<R>(query, chunkSize);
  }
}

import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type BetterSqlite3 from 'better-sqlite3';
import { Kysely, sql } from 'kysely';
import type PG from 'pg';
import { ensurePrivateFile, PRIVATE_DIR_MODE } from './data-dir.js';
import { HearthPostgresDialect } from './pg-introspector.js';
import type { Database } from './schema.js';
import { HearthSqliteDialect, type SqliteDriverOptions } from './sqlite-driver.js';
import { startWalCheckpointer, type WalCheckpointer } from './wal-checkpoint.js';

// Each driver loads only when its database is chosen (pg alone is ~16 MB resident on a SQLite box).
const require = createRequire(import.meta.url);
const loadPg = (): typeof PG => require('pg');
const loadSqlite = (): typeof BetterSqlite3 => require('better-sqlite3');
let pgTypesSet = false;

export type Dialect = 'sqlite' | 'postgres';

export interface Storage {
  db: Kysely<Database>;
  dialect: Dialect;
  /** The SQLite file (not for PostgreSQL or an in-memory database): other connections open it too. */
  sqliteFile?: string;
  /** Cheap round trip used by /healthz. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

export interface StorageOptions {
  /** postgres:// URL; unset selects SQLite. */
  databaseUrl?: string | undefined;
  /** SQLite file (ignored for PostgreSQL). */
  sqliteFile?: string;
  /** PostgreSQL schema to use instead of "public" (tests isolate themselves this way). */
  pgSchema?: string;
  /** How often a SQLite file's log is checkpointed off the event loop (ms; wal-checkpoint.ts). */
  walCheckpointMs?: number;
}

const WAL_CHECKPOINT_MS = 2000;
/** The page cache of the SQLite connection, in KiB (`PRAGMA cache_size` takes it negative). */
const SQLITE_CACHE_KB = 2000;

export function openStorage(options: StorageOptions): Storage {
  if (options.databaseUrl) {
    const pg = loadPg();
    if (!pgTypesSet) {
      // COUNT(*) and other int8 results arrive as strings by default; ours fit in a double.
      pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number.parseInt(value, 10));
      pgTypesSet = true;
    }
    const pool = new pg.Pool({
      connectionString: options.databaseUrl,
      max: 10,
      connectionTimeoutMillis: 5000,
      ...(options.pgSchema ? { options: `-c search_path=${options.pgSchema}` } : {}),
    });
    // A client losing its connection must not crash the process; the next query reconnects.
    // pg-pool listens for errors only while a client is idle: one checked out between two
    // statements (a transaction) would throw its error as an uncaught exception.
    pool.on('error', () => {});
    pool.on('connect', (client) => client.on('error', () => {}));
    const db = new Kysely<Database>({ dialect: new HearthPostgresDialect({ pool }) });
    return {
      db,
      dialect: 'postgres',
      ping: async () => {
        await sql`select 1`.execute(db);
      },
      close: () => db.destroy(),
    };
  }

  const file = options.sqliteFile ?? ':memory:';
  if (file !== ':memory:') {
    fs.mkdirSync(path.dirname(file), { recursive: true, mode: PRIVATE_DIR_MODE });
    // SQLite gives its -wal and -shm files the mode of the database file: 0600 for all three.
    ensurePrivateFile(file);
    for (const companion of [`${file}-wal`, `${file}-shm`]) {
      if (fs.existsSync(companion)) ensurePrivateFile(companion);
    }
  }
  const SQLite = loadSqlite();
  const sqlite = new SQLite(file);
  configureSqlite(sqlite);
  let checkpointer: WalCheckpointer | undefined;
  if (file !== ':memory:') {
    // Checkpoints run in a worker, not inside whichever write crosses 1000 pages.
    sqlite.pragma('wal_autocheckpoint = 0');
    checkpointer = startWalCheckpointer({
      file,
      driver: require.resolve('better-sqlite3'),
      intervalMs: options.walCheckpointMs ?? WAL_CHECKPOINT_MS,
      onError: (message) => process.emitWarning(`SQLite checkpoint failed: ${message}`),
    });
  }
  // The server's thread never sleeps inside SQLite waiting for the history worker's lock.
  const db = sqliteKysely(sqlite, { waitOffThread: {} });
  return {
    db,
    dialect: 'sqlite',
    ...(file !== ':memory:' ? { sqliteFile: file } : {}),
    ping: async () => {
      await sql`select 1`.execute(db);
    },
    // The worker's connection goes first: the last connection to close checkpoints the whole log.
    close: async () => {
      await checkpointer?.close();
      await db.destroy();
    },
  };
}

/** The settings of every connection to Hearth's SQLite file (the server's, its history worker's). */
export function configureSqlite(sqlite: BetterSqlite3.Database) {
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  // SQLite's own default page cache, 2 MB: better-sqlite3 builds it with 16 MB, which the device
  // registry of 2000 real devices (about 5 KB of metadata each) fills and keeps resident for
  // good. What falls out is read back from the operating system's file cache, a few µs a page.
  sqlite.pragma(`cache_size = -${SQLITE_CACHE_KB}`);
}

/** Kysely on one SQLite connection, its prepared statements kept (statement-cache.ts). */
export function sqliteKysely(
  sqlite: BetterSqlite3.Database,
  options?: SqliteDriverOptions,
): Kysely<Database> {
  return new Kysely<Database>({ dialect: new HearthSqliteDialect(sqlite, options) });
}

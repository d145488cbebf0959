import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll } from 'vitest';
import { openStorage, type Storage } from '../src/storage/database.js';
import { migrateToLatest } from '../src/storage/migrate.js';
import { serviceUrl } from './services.js';

export interface TestDatabase {
  name: 'sqlite' | 'postgres';
  /** Opens a connection to the same database (call again to simulate a restart). */
  open(): Storage;
  /** Options for buildApp: the same database through the whole server. */
  appOptions(): { databaseUrl: string | undefined; dataDir: string; pgSchema?: string };
  drop(): Promise<void>;
}

/** A fresh, empty SQLite file in a temporary directory. */
export function sqliteDatabase(): TestDatabase {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-test-'));
  const file = path.join(dataDir, 'hearth.db');
  return {
    name: 'sqlite',
    open: () => openStorage({ sqliteFile: file }),
    appOptions: () => ({ databaseUrl: undefined, dataDir }),
    drop: async () => fs.rmSync(dataDir, { recursive: true, force: true }),
  };
}

/** A fresh, empty PostgreSQL schema on TEST_DATABASE_URL, dropped afterwards. */
export async function postgresDatabase(url: string): Promise<TestDatabase> {
  const schema = `hearth_test_${crypto.randomUUID().replaceAll('-', '').slice(0, 12)}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`create schema ${schema}`);
  await admin.end();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-test-'));
  return {
    name: 'postgres',
    open: () => openStorage({ databaseUrl: url, pgSchema: schema }),
    appOptions: () => ({ databaseUrl: url, dataDir, pgSchema: schema }),
    drop: async () => {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      await client.query(`drop schema if exists ${schema} cascade`);
      await client.end();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * The databases every storage suite runs on: SQLite always, PostgreSQL when TEST_DATABASE_URL
 * is set (required with REQUIRE_SERVICES=1).
 */
export function testDatabases(): { name: 'sqlite' | 'postgres'; create: () => Promise<TestDatabase> }[] {
  const url = serviceUrl('TEST_DATABASE_URL');
  if (!url) console.warn('[skipped] PostgreSQL storage tests: TEST_DATABASE_URL is not set');
  return [
    { name: 'sqlite', create: async () => sqliteDatabase() },
    ...(url ? [{ name: 'postgres' as const, create: () => postgresDatabase(url) }] : []),
  ];
}

/**
 * The storage fixture of repository tests: a fresh database, migrated, for the suite (opened in
 * beforeAll, closed and dropped in afterAll). `storage` exists from beforeAll on.
 */
export function useTestStorage(create: () => Promise<TestDatabase>): {
  readonly storage: Storage;
  /** Closes the connection and opens a new one to the same database, as a restart would. */
  reopen(): Promise<Storage>;
} {
  let database: TestDatabase | undefined;
  let storage: Storage | undefined;
  beforeAll(async () => {
    database = await create();
    storage = database.open();
    await migrateToLatest(storage.db);
  });
  afterAll(async () => {
    await storage?.close();
    await database?.drop();
  });
  return {
    get storage() {
      if (!storage) throw new Error('the test storage exists from beforeAll on');
      return storage;
    },
    async reopen() {
      if (!database || !storage) throw new Error('the test storage exists from beforeAll on');
      await storage.close();
      storage = database.open();
      return storage;
    },
  };
}

import { type Kysely, Migrator, PostgresAdapter, sql } from 'kysely';
import { migrations } from './migrations/index.js';

/** Kysely's migrator over Hearth's migrations, on the database's current schema. */
// biome-ignore lint/suspicious/noExplicitAny: migrations work on any schema
export async function migratorOf(db: Kysely<any>): Promise<Migrator> {
  // Kysely looks for its migration tables in every schema unless told which one: on a PostgreSQL
  // database holding another Hearth schema (tests, several installs) it would skip creating its own.
  const schema =
    db.getExecutor().adapter instanceof PostgresAdapter
      ? (await sql<{ schema: string }>`select current_schema() as schema`.execute(db)).rows[0]?.schema
      : undefined;
  return new Migrator({
    db,
    provider: { getMigrations: async () => migrations },
    ...(schema ? { migrationTableSchema: schema } : {}),
  });
}

/** Brings the schema up to date. Safe to run at every start and from several instances at once. */
// biome-ignore lint/suspicious/noExplicitAny: migrations work on any schema
export async function migrateToLatest(db: Kysely<any>): Promise<string[]> {
  const { error, results } = await (await migratorOf(db)).migrateToLatest();
  if (error) {
    const failed = results?.find((r) => r.status === 'Error');
    const cause = error instanceof Error ? error.message : String(error);
    throw new Error(`Database migration ${failed?.migrationName ?? ''} failed: ${cause}`.trim());
  }
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

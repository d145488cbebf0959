import { type Kysely, Migrator } from 'kysely';
import { migrations } from './migrations/index.js';

/** Brings the schema up to date. Safe to run at every start and from several instances at once. */
// biome-ignore lint/suspicious/noExplicitAny: migrations work on any schema
export async function migrateToLatest(db: Kysely<any>): Promise<string[]> {
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => migrations },
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((r) => r.status === 'Error');
    const cause = error instanceof Error ? error.message : String(error);
    throw new Error(`Database migration ${failed?.migrationName ?? ''} failed: ${cause}`.trim());
  }
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

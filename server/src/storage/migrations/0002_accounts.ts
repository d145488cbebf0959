import type { Kysely, Migration } from 'kysely';

// Placeholder until its domain lands: fill in `up`/`down` (dialect-neutral schema builder only).
export const migration: Migration = {
  async up(_db: Kysely<unknown>) {},
  async down(_db: Kysely<unknown>) {},
};

import type { Kysely, Migration } from 'kysely';

/**
 * When a sign-in session last proved who is behind it (the sign-in itself, or the password
 * confirmed again): connecting an identity provider needs it within 5 minutes (issue 32 item 12).
 * Sessions from before have none, so they confirm the password once before connecting.
 */
export const migration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('auth_sessions').addColumn('authenticated_at', 'text').execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.alterTable('auth_sessions').dropColumn('authenticated_at').execute();
  },
};

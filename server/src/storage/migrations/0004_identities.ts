import type { Kysely, Migration } from 'kysely';

export const migration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('user_identities')
      .addColumn('provider', 'text', (col) => col.notNull())
      .addColumn('subject', 'text', (col) => col.notNull())
      .addColumn('user_id', 'text', (col) => col.notNull().references('users.id').onDelete('cascade'))
      .addColumn('email', 'text')
      .addColumn('created_at', 'text', (col) => col.notNull())
      .addPrimaryKeyConstraint('user_identities_pk', ['provider', 'subject'])
      .execute();
    // One account per provider for each user: a second subject with the same e-mail is a conflict.
    await db.schema
      .createIndex('user_identities_provider_user_idx')
      .on('user_identities')
      .columns(['provider', 'user_id'])
      .unique()
      .execute();
    await db.schema
      .createTable('oidc_login_states')
      .addColumn('state', 'text', (col) => col.primaryKey())
      .addColumn('provider', 'text', (col) => col.notNull())
      .addColumn('nonce', 'text', (col) => col.notNull())
      .addColumn('code_verifier', 'text', (col) => col.notNull())
      .addColumn('created_at', 'text', (col) => col.notNull())
      .addColumn('expires_at', 'text', (col) => col.notNull())
      .execute();
    await db.schema
      .createIndex('oidc_login_states_expires_idx')
      .on('oidc_login_states')
      .column('expires_at')
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('oidc_login_states').execute();
    await db.schema.dropTable('user_identities').execute();
  },
};

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { startTestApp, type TestApp, useTestApp } from '../../test/app.js';
import { type TestDatabase, testDatabases } from '../../test/databases.js';

/** The same database seen by another instance: on PostgreSQL with a DATA_DIR of its own. */
function anotherInstance(database: TestDatabase, ownDir: string): TestDatabase {
  if (database.name !== 'postgres') return database;
  return { ...database, appOptions: () => ({ ...database.appOptions(), dataDir: ownDir }) };
}

const me = (app: TestApp, token: string) =>
  app.app.inject({ method: 'GET', url: '/api/auth/me', headers: { authorization: `Bearer ${token}` } });

describe.each(testDatabases())('the generated AUTH_SECRET on $name', ({ create }) => {
  const t = useTestApp({ database: create });

  const withOther = async (env: Record<string, string>, body: (other: TestApp) => Promise<void>) => {
    const ownDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-other-'));
    const other = await startTestApp(anotherInstance(t.database, ownDir), env);
    try {
      await body(other);
    } finally {
      await other.close();
      fs.rmSync(ownDir, { recursive: true, force: true });
    }
  };

  it("is kept in the database: another instance without AUTH_SECRET accepts this one's tokens, and back", async () => {
    const user = await t.user('user');
    await withOther({}, async (other) => {
      expect((await me(other, await t.tokenFor(user))).statusCode).toBe(200);
      const theirs = (await other.sessions.issue(user)).access_token;
      expect((await me(t.hearth, theirs)).statusCode).toBe(200);
    });
    // The table also keeps Web Push's key pair (docs/alerts.md), under a name of its own.
    const rows = await t.hearth.storage.db
      .selectFrom('shared_secrets')
      .select(['name', 'value'])
      .where('name', '!=', 'vapid-keys')
      .execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]?.name).toBe('auth-secret');
    expect(rows[0]?.value.length).toBeGreaterThanOrEqual(32);
    // Nothing new in DATA_DIR: the database is where it lives.
    expect(fs.existsSync(path.join(t.hearth.config.dataDir, 'secrets', 'auth-secret'))).toBe(false);
  });

  it('AUTH_SECRET set explicitly wins: that instance refuses tokens signed with the generated one', async () => {
    const user = await t.user('user');
    await withOther({ AUTH_SECRET: 'an-explicit-secret-of-at-least-32-characters' }, async (other) => {
      expect((await me(other, await t.tokenFor(user))).statusCode).toBe(401);
      const theirs = (await other.sessions.issue(user)).access_token;
      expect((await me(other, theirs)).statusCode).toBe(200);
      expect((await me(t.hearth, theirs)).statusCode).toBe(401);
    });
  });
});

describe.each(testDatabases())(
  'an AUTH_SECRET an earlier version generated in DATA_DIR, on $name',
  ({ create }) => {
    it('moves into the database, so the tokens it signed stay valid on every instance', async () => {
      const database = await create();
      const { dataDir } = database.appOptions();
      const old = 'an-old-generated-secret-kept-in-the-data-dir-0123456789';
      fs.mkdirSync(path.join(dataDir, 'secrets'), { recursive: true });
      fs.writeFileSync(path.join(dataDir, 'secrets', 'auth-secret'), `${old}\n`);
      const first = await startTestApp(database);
      const explicit = await startTestApp(
        anotherInstance(database, fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-'))),
        {
          AUTH_SECRET: old,
        },
      );
      try {
        const stored = await first.storage.db.selectFrom('shared_secrets').select('value').executeTakeFirst();
        expect(stored?.value).toBe(old);
        expect(first.logs.text).toContain('is now kept in the database');
        // A token of the instance with the old secret set explicitly is accepted: same secret.
        const user = await first.users.create({
          email: 'old-secret@example.com',
          userName: 'oldsecret',
          firstName: 'Old',
          lastName: 'Secret',
          passwordHash: null,
          role: 'user',
        });
        expect((await me(first, (await explicit.sessions.issue(user)).access_token)).statusCode).toBe(200);
      } finally {
        await explicit.close();
        await first.close();
        await database.drop();
      }
    });
  },
);

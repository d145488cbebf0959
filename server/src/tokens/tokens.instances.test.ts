import type { CreatedApiToken } from '@hearth/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessToken, callInstance, createUser, startTestApp, type TestApp } from '../../test/app.js';
import { type TestDatabase, testDatabases } from '../../test/databases.js';
import type { UserRecord } from '../users/index.js';

const LIMIT = 5;

/**
 * docs/api.md#rate-limit-per-token: two instances on one database share each token's window, so a
 * script spread over them gets API_TOKEN_RATE_LIMIT calls a minute in all, then 429 with Retry-After.
 */
describe.each(testDatabases())("an API token's rate limit across two instances on $name", ({ create }) => {
  let database: TestDatabase;
  let a: TestApp;
  let b: TestApp;
  let owner: UserRecord;

  beforeAll(async () => {
    database = await create();
    a = await startTestApp(database, { API_TOKEN_RATE_LIMIT: String(LIMIT) });
    b = await startTestApp(database, { API_TOKEN_RATE_LIMIT: String(LIMIT) });
    owner = await createUser(a, 'resident');
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await database?.drop();
  });

  const status = async (app: TestApp, token: string) => {
    const response = await app.app.inject({
      method: 'GET',
      url: '/api/devicehub/status',
      headers: { authorization: `Bearer ${token}` },
    });
    return { status: response.statusCode, retryAfter: response.headers['retry-after'] };
  };

  it('counts the calls of both instances in one window per token', async () => {
    const created: CreatedApiToken = await callInstance(
      a,
      await accessToken(a, owner),
      'POST',
      '/api/auth/tokens',
      {
        name: 'Poller',
        expires_in: 'never',
        scope: 'read',
      },
    );
    const other: CreatedApiToken = await callInstance(
      b,
      await accessToken(b, owner),
      'POST',
      '/api/auth/tokens',
      {
        name: 'Other',
        expires_in: 'never',
        scope: 'read',
      },
    );
    const answers = [];
    for (let i = 0; i < LIMIT; i++) answers.push((await status(i % 2 ? b : a, created.token)).status);
    expect(answers).toEqual(Array(LIMIT).fill(200));
    for (const app of [a, b]) {
      const over = await status(app, created.token);
      expect(over.status).toBe(429);
      expect(Number(over.retryAfter)).toBeGreaterThanOrEqual(1);
      expect(Number(over.retryAfter)).toBeLessThanOrEqual(60);
    }
    // Each token has its own window.
    expect((await status(b, other.token)).status).toBe(200);
    // The refusal is recorded once a window, not once a call.
    await a.activity.flush();
    await b.activity.flush();
    const rows = await a.storage.db
      .selectFrom('activity')
      .select(['result', 'detail'])
      .where('actor_id', '=', created.id)
      .execute();
    expect(rows.filter((row) => row.result === 'refused').length).toBe(1);
    expect(rows.filter((row) => row.result === 'ok').length).toBe(LIMIT);
  });
});

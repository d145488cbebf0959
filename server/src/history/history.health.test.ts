import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type TestDatabase, testDatabases } from '../../test/databases.js';
import { eventually, waitFor } from '../../test/wait.js';
import { type RecordingHousehold, startRecordingHousehold } from './history-test-kit.js';

// docs/api.md#health: the activity log and history report their writers' health; one that has
// not been able to write for a minute turns /healthz 503, named in `failing`.
describe.each(testDatabases())('/healthz and the writers on $name', ({ create }) => {
  let database: TestDatabase;
  let h: RecordingHousehold;

  beforeAll(async () => {
    database = await create();
    h = await startRecordingHousehold(database);
  }, 60_000);
  afterAll(async () => {
    await h?.close();
    await database?.drop();
  });

  /** What /healthz names (`http` always: the test app does not listen). */
  const failing = async (): Promise<string[]> => (await h.app.app.inject({ url: '/healthz' })).json().failing;
  /** /healthz as it answers a minute and a second from now (only the clock is moved). */
  const aMinuteLater = async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 61_000 });
    try {
      return await failing();
    } finally {
      vi.useRealTimers();
    }
  };
  const signInAttempt = () =>
    h.app.app.inject({
      method: 'POST',
      url: '/api/auth/login/start',
      payload: { email: `nobody-${crypto.randomUUID().slice(0, 8)}@example.com`, password: 'wrong password' },
    });

  it('names activity and history once they have not written for a minute, and neither once they write again', async () => {
    await h.recorded();
    await eventually(failing, (names) => names.join() === 'http');
    expect(await aMinuteLater()).toEqual(['http']);

    const { db } = h.app.storage;
    await sql`alter table activity rename to activity_away`.execute(db);
    await sql`alter table history_raw rename to history_raw_away`.execute(db);
    try {
      expect((await signInAttempt()).statusCode).toBe(401);
      await h.app.activity.flush();
      await h.report('Lamp', { linkquality: 7 });
      await waitFor(() => h.app.logs.text.includes('history recording failed'), 10_000);
      // Not for a minute yet.
      expect(await failing()).toEqual(['http']);
      const later = await aMinuteLater();
      expect(later).toEqual(['activity', 'history', 'http']);
      expect((await h.app.app.inject({ url: '/healthz' })).statusCode).toBe(503);
    } finally {
      await sql`alter table activity_away rename to activity`.execute(db);
      await sql`alter table history_raw_away rename to history_raw`.execute(db);
    }

    expect((await signInAttempt()).statusCode).toBe(401);
    await h.app.activity.flush();
    // What history kept is written at its next flush (a chart shows readings still buffered).
    await waitFor(() => h.app.logs.text.includes('history recording works again'), 10_000);
    expect(await aMinuteLater()).toEqual(['http']);
  }, 60_000);
});

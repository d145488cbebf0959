import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../test/app.js';
import { testDatabases } from '../../test/databases.js';

/** docs/api.md#preferences: each person's own settings of the app, on both databases. */
describe.each(testDatabases())('preferences on $name', ({ create }) => {
  const t = useTestApp({ database: create });

  it('start with the examples shown, for every role', async () => {
    for (const role of ['user', 'resident', 'admin'] as const) {
      expect(await t.call(await t.user(role), 'GET', '/api/auth/preferences')).toEqual({
        status: 200,
        body: { hide_examples: false },
      });
    }
  });

  it('keep "Hide examples" for the person who chose it, and only for them', async () => {
    const uma = await t.user('user');
    const rae = await t.user('resident');
    expect(await t.call(uma, 'PATCH', '/api/auth/preferences', { hide_examples: true })).toEqual({
      status: 200,
      body: { hide_examples: true },
    });
    expect((await t.call(uma, 'GET', '/api/auth/preferences')).body).toEqual({ hide_examples: true });
    expect((await t.call(rae, 'GET', '/api/auth/preferences')).body).toEqual({ hide_examples: false });
    // Shown again, and the same answer twice over (the row is updated, not added).
    await t.call(uma, 'PATCH', '/api/auth/preferences', { hide_examples: false });
    await t.call(uma, 'PATCH', '/api/auth/preferences', { hide_examples: false });
    expect((await t.call(uma, 'GET', '/api/auth/preferences')).body).toEqual({ hide_examples: false });
  });

  it('refuses the signed-out, a value that is not a boolean and an empty change', async () => {
    expect((await t.call(undefined, 'GET', '/api/auth/preferences')).status).toBe(401);
    expect((await t.call(undefined, 'PATCH', '/api/auth/preferences', { hide_examples: true })).status).toBe(
      401,
    );
    const ada = await t.user('admin');
    expect(await t.call(ada, 'PATCH', '/api/auth/preferences', { hide_examples: 'yes' })).toEqual({
      status: 400,
      body: { error: 'hide_examples must be true or false' },
    });
    expect(await t.call(ada, 'PATCH', '/api/auth/preferences', { colour: 'red' })).toEqual({
      status: 400,
      body: { error: 'Nothing to change: give hide_examples' },
    });
    expect((await t.call(ada, 'GET', '/api/auth/preferences')).body).toEqual({ hide_examples: false });
  });
});

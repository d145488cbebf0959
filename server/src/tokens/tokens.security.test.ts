import type { CreatedApiToken } from '@hearth/contracts';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../test/app.js';
import { testDatabases } from '../../test/databases.js';
import { inPairs, median } from '../../test/paired-timing.js';
import type { UserRecord } from '../users/index.js';
import { TOKENS_ERRORS as E } from './tokens.errors.js';
import { newApiToken } from './tokens.secret.js';

/** docs/api.md#api-tokens: a password reset ends them; an unknown and a revoked token look alike. */
describe.each(testDatabases())('API token security on $name', ({ create }) => {
  const t = useTestApp({ database: create, mail: true });
  let owner: UserRecord;

  beforeAll(async () => {
    owner = await t.user('resident');
  });

  const newToken = async (): Promise<CreatedApiToken> =>
    (await t.call(owner, 'POST', '/api/auth/tokens', { name: 'Cron', expires_in: '1y', scope: 'read' })).body;
  const call = async (token: string) => {
    const started = performance.now();
    const response = await t.app.inject({
      method: 'GET',
      url: '/api/devicehub/status',
      headers: { authorization: `Bearer ${token}` },
    });
    return { status: response.statusCode, body: response.json(), ms: performance.now() - started };
  };

  it("revokes the owner's tokens when their password is reset", async () => {
    const created = await newToken();
    expect((await call(created.token)).status).toBe(200);
    await t.api.post('/password/reset/request', { email: owner.email });
    const code = await t.mail.code(owner.email, /reset/i);
    const reset = await t.api.post('/password/reset/confirm', {
      email: owner.email,
      code,
      new_password: 'a fresh long passphrase 38',
    });
    expect(reset.statusCode).toBe(200);
    expect(await call(created.token)).toMatchObject({ status: 401, body: { error: E.invalid } });
  });

  it('answers an unknown and a revoked token alike, in the same time', async () => {
    const revoked = await newToken();
    expect((await t.call(owner, 'DELETE', `/api/auth/tokens/${revoked.id}`)).status).toBe(204);
    const unknown = newApiToken();
    // In pairs, after a warm-up: each pair's difference cancels the machine's load of the moment.
    for (let i = 0; i < 20; i++) await call(i % 2 ? unknown : revoked.token);
    const pairs = await inPairs(
      200,
      () => call(revoked.token),
      () => call(unknown),
    );
    for (const answer of pairs.flat())
      expect(answer).toMatchObject({ status: 401, body: { error: E.invalid } });
    const differences = pairs.map(([r, u]) => u.ms - r.ms);
    const times = pairs.flatMap(([r, u]) => [u.ms, r.ms]);
    // One read by hash either way: the median difference is within a fifth of a call (or 0.3 ms).
    const typical = median(times);
    const difference = median(differences);
    expect(
      Math.abs(difference),
      `median ${typical.toFixed(3)} ms, difference ${difference.toFixed(3)} ms`,
    ).toBeLessThan(Math.max(0.3, 0.2 * typical));
  });
});

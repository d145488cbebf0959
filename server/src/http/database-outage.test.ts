import { afterAll, beforeAll, expect, it } from 'vitest';
import { AccountsClient, person } from '../../test/accounts-client.js';
import { accessToken, createUser, startTestApp } from '../../test/app.js';
import { postgresDatabase, type TestDatabase } from '../../test/databases.js';
import { type OwnPostgres, startOwnPostgres } from '../../test/own-postgres.js';
import { describeWithService } from '../../test/services.js';
import { byName, type Household, startHousehold, waitFor } from '../devicehub/devicehub-test-kit.js';

const UNAVAILABLE = 'Service temporarily unavailable, please try again later';

// An own PostgreSQL cluster, killed and restarted; the machine's shared one is never touched.
describeWithService('TEST_DATABASE_URL', 'Hearth while its PostgreSQL is down', () => {
  let pg: OwnPostgres;
  let database: TestDatabase;
  let h: Household;
  let accounts: AccountsClient;
  /** A signed-in user (their refresh token) and an admin (their access token). */
  let session: { access_token: string; refresh_token: string };
  let admin: string;

  beforeAll(async () => {
    pg = await startOwnPostgres();
    database = await postgresDatabase(pg.url);
    ({ household: h } = await startHousehold(database, undefined));
    accounts = new AccountsClient(() => h.app.app);
    session = await accounts.login(await accounts.signup(person()));
    admin = await h.token('admin');
    await h.z2m.publishDevices();
    await waitFor(async () => ((await h.list()).length === 4 ? true : undefined));
  }, 60_000);
  afterAll(async () => {
    await h?.close();
    await pg?.stop();
  });

  const get = (url: string, token = admin) => h.call('GET', url, undefined, token);
  const command = (id: string, token = admin) => h.command(id, { state: { on: true } }, token);

  it('serves what it holds in memory, answers 503 with Retry-After for the rest, and recovers at once', async () => {
    expect((await get('/api/auth/me')).statusCode).toBe(200);
    expect((await get('/api/auth/me', session.access_token)).statusCode).toBe(200);
    const lamp = byName(await h.list(), 'Living room/Lamp')!;
    // A caller this instance has never read: only the database knows them.
    const stranger = await accessToken(h.app, await createUser(h.app, 'admin'));

    await pg.kill();

    // Memory: the signed-in caller (read before the outage), the device list, commands.
    const me = await get('/api/auth/me');
    expect([me.statusCode, me.json().email]).toEqual([200, expect.any(String)]);
    expect((await get('/api/devicehub/devices')).json()).toHaveLength(4);
    expect((await command(lamp.id)).statusCode).toBe(200);
    await waitFor(() => h.z2m.sets.length > 0 || undefined);

    // Everything that needs the database: one 503, never a bare 500.
    const needsDatabase = [
      await accounts.post('/signup', person()),
      await accounts.post('/refresh', { refresh_token: session.refresh_token }),
      await get('/api/auth/users'),
      await get('/api/devicehub/devices/removed'),
      await get('/api/auth/me', stranger),
    ];
    for (const response of needsDatabase) {
      expect([response.statusCode, response.json()]).toEqual([503, { error: UNAVAILABLE }]);
      expect(response.headers['retry-after']).toBe('5');
    }
    const login = await accounts.post('/login/start', { email: 'x@example.com', password: 'whatever1' });
    expect([login.statusCode, login.headers['retry-after']]).toEqual([503, '5']);
    const health = await h.app.app.inject({ url: '/healthz' });
    expect([health.statusCode, health.json().failing]).toEqual([503, expect.arrayContaining(['database'])]);

    await pg.start();
    const back = Date.now();
    await waitFor(async () => ((await get('/api/auth/users')).statusCode === 200 ? true : undefined), 10_000);
    expect(Date.now() - back).toBeLessThanOrEqual(3000);
    const refreshed = await accounts.post('/refresh', { refresh_token: session.refresh_token });
    expect(refreshed.statusCode).toBe(200);
    expect((await accounts.post('/signup', person())).statusCode).toBe(201);
  }, 60_000);

  it('waits for an unreachable database at start for up to DATABASE_CONNECT_TIMEOUT', async () => {
    await pg.start();
    const later = await postgresDatabase(pg.url);
    await pg.kill();
    const gaveUp = Date.now();
    await expect(startTestApp(later, { DATABASE_CONNECT_TIMEOUT: '1' })).rejects.toThrow(
      /Database not reachable within 1 s/,
    );
    expect(Date.now() - gaveUp).toBeLessThan(5000);

    const starting = startTestApp(later, { DATABASE_CONNECT_TIMEOUT: '30' });
    await new Promise((resolve) => setTimeout(resolve, 2000));
    await pg.start();
    const app = await starting;
    try {
      const health = (await app.app.inject({ url: '/healthz' })).json();
      expect(health.failing).not.toContain('database');
      expect(app.logs.text).toContain('database not reachable yet');
    } finally {
      await app.close();
      await later.drop();
    }
  }, 60_000);
});

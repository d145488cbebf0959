import mqtt from 'mqtt';
import { afterEach, describe, expect, it } from 'vitest';
import { accessToken, createUser, startTestApp, type TestApp } from '../../../test/app.js';
import { sqliteDatabase, type TestDatabase } from '../../../test/databases.js';

// The edge broker as the app wires it: on /ws/devicehub, closed with the HTTP server.
describe('edge broker in the app', () => {
  let app: TestApp | undefined;
  let database: TestDatabase;
  afterEach(async () => {
    await app?.close();
    await database.drop();
  });

  const start = async () => {
    database = sqliteDatabase();
    app = await startTestApp(database);
    const address = await app.app.listen({ port: 0, host: '127.0.0.1' });
    return `${address.replace(/^http/, 'ws')}/ws/devicehub`;
  };

  const tokenFor = async (role: 'user' | 'resident') => {
    if (!app) throw new Error('no app');
    return accessToken(app, await createUser(app, role, { userName: role }));
  };

  it('serves residents on /ws/devicehub and refuses role "user"', async () => {
    const url = await start();
    const resident = await mqtt.connectAsync(url, {
      password: await tokenFor('resident'),
      username: 'x',
      reconnectPeriod: 0,
    });
    expect(resident.connected).toBe(true);
    await expect(
      mqtt.connectAsync(url, { password: await tokenFor('user'), username: 'x', reconnectPeriod: 0 }),
    ).rejects.toThrow(/Not authorized/);
    resident.end(true);
  });

  it('does not hold the server shutdown open while a browser is connected', async () => {
    const url = await start();
    const client = await mqtt.connectAsync(url, {
      password: await tokenFor('resident'),
      username: 'x',
      reconnectPeriod: 0,
    });
    const closed = new Promise<void>((resolve) => client.once('close', () => resolve()));
    const started = Date.now();
    await app?.close(10_000);
    app = undefined;
    await closed;
    expect(Date.now() - started).toBeLessThan(3000);
  });
});

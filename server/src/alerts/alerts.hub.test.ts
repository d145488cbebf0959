import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestDatabase, testDatabases } from '../../test/databases.js';
import { type RestartableBroker, restartableBrokers } from '../../test/restartable-broker.js';
import { waitFor } from '../../test/wait.js';
import { type AlertsHousehold, alertDevices, startAlertsHousehold } from './alerts-test-kit.js';

/** docs/alerts.md#rules: the hub rule on the bus itself: away for more than a minute, admins are told. */
describe.each(testDatabases())('the hub rule on $name', ({ create }) => {
  describe.each(restartableBrokers())('with the $name taken away', ({ start }) => {
    let broker: RestartableBroker;
    let database: TestDatabase;
    let h: AlertsHousehold;
    beforeAll(async () => {
      broker = await start();
      database = await create();
      h = await startAlertsHousehold(database, broker.url, {
        devices: alertDevices({ plugs: ['Hall plug'] }),
      });
    });
    afterAll(async () => {
      await broker?.start();
      await h?.close();
      await broker?.stop();
      await database?.drop();
    });

    const busIs = async (token: string, state: string) =>
      waitFor(async () => (await h.call(token, 'GET', '/api/devicehub/status')).body.bus === state, 15_000);

    it('tells the admins of a bus away longer than a minute, and that it is back', async () => {
      const admin = await h.person('admin');
      const resident = await h.person('resident');
      await broker.kill();
      await busIs(admin.token, 'offline');
      await h.advance(0);
      await h.advance(59_000);
      expect((await h.inbox(admin.token, '?kind=hub')).notifications).toEqual([]);
      await h.advance(2000);
      const [away] = (await h.inbox(admin.token, '?kind=hub')).notifications;
      expect(away).toMatchObject({
        title: 'Hearth: Device bus offline',
        severity: 'warning',
        resolved_at: null,
      });
      expect(away?.body).toMatch(/^No device can be reached since \d\d:\d\d\.$/);
      expect((await h.inbox(resident.token, '?kind=hub')).notifications).toEqual([]);

      await broker.start();
      await busIs(admin.token, 'online');
      await h.advance(1000);
      const [back] = (await h.inbox(admin.token, '?kind=hub')).notifications;
      expect(back).toMatchObject({ id: away?.id, title: 'Hearth: Device bus back online' });
    });
  });
});

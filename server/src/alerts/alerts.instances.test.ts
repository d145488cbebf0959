import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresDatabase, type TestDatabase, testDatabases } from '../../test/databases.js';
import { FakeClock } from '../../test/fake-clock.js';
import { describeWithService, serviceUrl } from '../../test/services.js';
import { waitFor } from '../../test/wait.js';
import {
  type AlertsHousehold,
  about,
  alertDevices,
  startAlertsHousehold,
  testBuses,
  WebhookCatcher,
} from './alerts-test-kit.js';

const MINUTE = 60_000;
const devices = alertDevices({ leaks: ['Attic leak'], plugs: ['Garage plug'] });

/** docs/alerts.md#incidents: a restart neither repeats nor loses an open incident or a waiting one. */
describe.each(testDatabases())('alerts across a restart on $name', ({ create }) => {
  describe.each(testBuses())('over the $name', ({ url }) => {
    const hooks = new WebhookCatcher();
    const clock = new FakeClock();
    const ids = {
      base: `z2m-restart-${crypto.randomUUID().slice(0, 8)}`,
      prefix: `hearth-restart-${crypto.randomUUID().slice(0, 8)}`,
    };
    let database: TestDatabase;
    let h: AlertsHousehold | undefined;
    beforeAll(async () => {
      await hooks.start();
      database = await create();
    });
    afterAll(async () => {
      await h?.close();
      await hooks.stop();
      await database?.drop();
    });

    it('keeps the open leak (no second message, its repeat on time) and the plug offline since before', async () => {
      h = await startAlertsHousehold(database, url, { devices, clock, ids });
      const { token } = await h.person('resident', {
        email: `restart-${ids.base}@example.com`,
        userName: ids.base,
      });
      await h.call(token, 'PUT', '/api/notifications/preferences', {
        push: false,
        email: false,
        webhook_url: `${hooks.url}/restart`,
        quiet_hours: null,
      });
      await h.report('Attic leak', { water_leak: true });
      await h.settle('Attic leak', (device) => device.state.water_leak === true);
      await waitFor(() => hooks.to('/restart').length === 1);
      const leakId = await h.idOf('Attic leak');
      const [before] = about(await h.inbox(token), leakId, 'safety');
      await h.availability('Garage plug', true);
      await h.settle('Garage plug', (device) => device.online);
      await h.availability('Garage plug', false);
      await h.settle('Garage plug', (device) => !device.online);
      const wentAt = new Date(clock.now()).toISOString().slice(11, 16);
      await h.advance(6 * MINUTE);
      await h.close();

      h = await startAlertsHousehold(database, url, { devices, clock, ids });
      const again = await h.call(token, 'GET', '/api/notifications');
      expect(again.status).toBe(200);
      // The sensor says it again (as after Zigbee2MQTT's own restart): the incident is the same one, not news.
      await h.report('Attic leak', { water_leak: true });
      await h.settle('Attic leak', (device) => device.state.water_leak === true);
      await h.availability('Garage plug', false);
      // Offline already (as every device after a start): a state message after it says the hub has read it.
      await h.report('Garage plug', { state: 'OFF' });
      await h.settle('Garage plug', (device) => device.state.state === 'OFF' && !device.online);
      expect(hooks.to('/restart')).toHaveLength(1);
      expect(about(await h.inbox(token), leakId, 'safety')).toEqual([before]);

      // 10 minutes after the plug went: its incident, with the time it went.
      await h.advance(4 * MINUTE);
      const plugId = await h.idOf('Garage plug');
      expect(about(await h.inbox(token), plugId, 'offline')[0]).toMatchObject({
        body: `Not reachable since ${wentAt}.`,
      });
      // 15 minutes after the leak: its repeat, once.
      await h.advance(5 * MINUTE);
      await waitFor(
        () =>
          hooks.to('/restart').filter((hook) => hook.headers.title === 'Attic leak: Leak detected').length ===
          2,
      );
    });
  });
});

/** docs/alerts.md#incidents: two instances on one PostgreSQL and one Mosquitto raise each incident once. */
describeWithService('TEST_MQTT_URL', 'alerts on two instances', (mqttUrl) => {
  const hooks = new WebhookCatcher();
  const clock = new FakeClock();
  const ids = {
    base: `z2m-two-${crypto.randomUUID().slice(0, 8)}`,
    prefix: `hearth-two-${crypto.randomUUID().slice(0, 8)}`,
  };
  let database: TestDatabase;
  let a: AlertsHousehold;
  let b: AlertsHousehold;
  beforeAll(async () => {
    const pgUrl = serviceUrl('TEST_DATABASE_URL');
    if (!pgUrl) throw new Error('two instances share a PostgreSQL database: TEST_DATABASE_URL');
    await hooks.start();
    database = await postgresDatabase(pgUrl);
    a = await startAlertsHousehold(database, mqttUrl, { devices, clock, ids });
    b = await startAlertsHousehold(database, mqttUrl, { devices, clock, ids });
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
    await hooks.stop();
    await database?.drop();
  });

  it('opens, tells and resolves each incident once, whichever instance sees it first', async () => {
    const { token } = await a.person('resident');
    await a.call(token, 'PUT', '/api/notifications/preferences', {
      push: false,
      email: false,
      webhook_url: `${hooks.url}/two`,
      quiet_hours: null,
    });
    await a.report('Attic leak', { water_leak: true });
    await a.settle('Attic leak', (device) => device.state.water_leak === true);
    await b.settle('Attic leak', (device) => device.state.water_leak === true);
    await waitFor(() => hooks.to('/two').length >= 1);
    await a.app.alerts.sweep();
    await b.app.alerts.sweep();
    expect(hooks.to('/two').map((hook) => hook.headers.title)).toEqual(['Attic leak: Leak detected']);
    const leakId = await a.idOf('Attic leak');
    expect(about(await a.inbox(token), leakId, 'safety')).toHaveLength(1);
    expect(about(await b.inbox(token), leakId, 'safety')).toHaveLength(1);

    await a.availability('Garage plug', true);
    await a.settle('Garage plug', (device) => device.online);
    await b.settle('Garage plug', (device) => device.online);
    await a.availability('Garage plug', false);
    await a.settle('Garage plug', (device) => !device.online);
    await b.settle('Garage plug', (device) => !device.online);
    clock.advance(10 * MINUTE);
    await Promise.all([a.app.alerts.tick(), b.app.alerts.tick()]);
    await Promise.all([a.app.alerts.sweep(), b.app.alerts.sweep()]);
    await waitFor(() => hooks.to('/two').length === 2);

    await a.report('Attic leak', { water_leak: false });
    await a.settle('Attic leak', (device) => device.state.water_leak === false);
    await b.settle('Attic leak', (device) => device.state.water_leak === false);
    await waitFor(() => hooks.to('/two').length === 3);
    await Promise.all([a.app.alerts.sweep(), b.app.alerts.sweep()]);
    expect(hooks.to('/two').map((hook) => hook.headers.title)).toEqual([
      'Attic leak: Leak detected',
      'Garage plug: Offline',
      'Attic leak: Leak cleared',
    ]);
    const notifications = (await b.inbox(token)).notifications;
    expect(notifications.map((each) => each.title).sort()).toEqual([
      'Attic leak: Leak cleared',
      'Garage plug: Offline',
    ]);
  });
});

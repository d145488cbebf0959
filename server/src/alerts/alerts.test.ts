import { describe, expect, it } from 'vitest';
import { testDatabases } from '../../test/databases.js';
import { waitFor } from '../../test/wait.js';
import {
  type AlertsHousehold,
  about,
  alertDevices,
  testBuses,
  useAlertsHousehold,
} from './alerts-test-kit.js';

const MINUTE = 60_000;

/**
 * docs/alerts.md#rules: each built-in rule opens, updates, resolves (and for critical ones,
 * repeats) its incident, one notification per person, on both databases and both buses, with a
 * clock the test moves.
 */
describe.each(testDatabases())('alerts on $name', ({ create }) => {
  describe.each(testBuses())('over the $name', ({ url }) => {
    const h = useAlertsHousehold({
      database: create,
      bus: url,
      devices: alertDevices({
        leaks: ['Bathroom leak', 'Kitchen leak', 'Cellar leak'],
        plugs: ['Freezer plug', 'Desk plug', 'Lamp plug'],
      }),
    });

    it('offline: opens after offline_after_minutes, not before, and resolves "Back online"', async () => {
      const { token } = await h.person('resident');
      const id = await h.idOf('Freezer plug');
      await h.availability('Freezer plug', true);
      await h.settle('Freezer plug', (device) => device.online);
      const wentAt = new Date(h.clock.now()).toISOString().slice(11, 16);
      await h.availability('Freezer plug', false);
      await h.settle('Freezer plug', (device) => !device.online);

      await h.advance(9 * MINUTE);
      expect(about(await h.inbox(token), id, 'offline')).toEqual([]);

      await h.advance(1 * MINUTE);
      const [opened] = about(await h.inbox(token), id, 'offline');
      expect(opened).toMatchObject({
        severity: 'warning',
        title: 'Freezer plug: Offline',
        body: `Not reachable since ${wentAt}.`,
        resolved_at: null,
        read: false,
      });
      expect((await h.inbox(token)).unread).toBeGreaterThanOrEqual(1);

      await h.call(token, 'POST', `/api/notifications/${opened?.id}/read`);
      await h.availability('Freezer plug', true);
      await h.settle('Freezer plug', (device) => device.online);
      const after = about(await h.inbox(token), id, 'offline');
      expect(after).toHaveLength(1);
      expect(after[0]).toMatchObject({ id: opened?.id, title: 'Freezer plug: Back online', read: false });
      expect(after[0]?.resolved_at).not.toBeNull();
      expect(about(await h.inbox(token, '?status=open'), id, 'offline')).toEqual([]);
      expect(about(await h.inbox(token, '?status=resolved'), id, 'offline')).toHaveLength(1);
    });

    it('battery: low at 15 %, once only while it wobbles, worse 5 points lower, cleared at 20 %', async () => {
      const { token } = await h.person('resident');
      const name = 'Kitchen leak';
      const id = await h.idOf(name);
      const level = async (battery: number) => {
        await h.report(name, { battery, water_leak: false });
        await h.settle(name, (device) => device.state.battery === battery);
        return about(await h.inbox(token), id, 'battery');
      };
      expect(await level(16)).toEqual([]);
      const [low] = await level(15);
      expect(low).toMatchObject({
        severity: 'info',
        title: 'Kitchen leak: Low battery',
        body: 'Battery at 15 %.',
      });
      await h.call(token, 'POST', `/api/notifications/${low?.id}/read`);
      for (const wobble of [17, 14, 19, 15, 18]) {
        const seen = await level(wobble);
        expect(seen).toHaveLength(1);
        expect(seen[0]).toMatchObject({
          id: low?.id,
          body: 'Battery at 15 %.',
          read: true,
          resolved_at: null,
        });
      }
      await h.advance(MINUTE);
      const [worse] = await level(10);
      expect(worse).toMatchObject({ id: low?.id, body: 'Battery at 10 %.', read: false, resolved_at: null });
      const [cleared] = await level(20);
      expect(cleared).toMatchObject({
        id: low?.id,
        title: 'Kitchen leak: Battery OK',
        body: 'Battery at 20 %.',
      });
      expect(cleared?.resolved_at).not.toBeNull();
    });

    it('safety: a leak is critical at once, repeats every repeat_critical_minutes until acknowledged, and clears', async () => {
      const { token } = await h.person('resident');
      const other = await h.person('resident');
      const name = 'Bathroom leak';
      const id = await h.idOf(name);
      await h.report(name, { water_leak: true });
      await h.settle(name, (device) => device.state.water_leak === true);
      const [leak] = about(await h.inbox(token), id, 'safety');
      expect(leak).toMatchObject({
        severity: 'critical',
        title: 'Bathroom leak: Leak detected',
        read: false,
      });
      expect(about(await h.inbox(other.token), id, 'safety')).toHaveLength(1);

      // Read, then repeated: unread again, for everyone.
      await h.call(token, 'POST', `/api/notifications/${leak?.id}/read`);
      await h.advance(14 * MINUTE);
      expect(about(await h.inbox(token), id, 'safety')[0]?.read).toBe(true);
      await h.advance(1 * MINUTE);
      const repeated = about(await h.inbox(token), id, 'safety')[0];
      expect(repeated).toMatchObject({ id: leak?.id, read: false });
      expect(repeated?.updated_at).not.toBe(leak?.updated_at);

      // Another resident acknowledges: no more repeats, for anyone; the activity log says who.
      const mine = about(await h.inbox(other.token), id, 'safety')[0];
      const acknowledged = await h.call(other.token, 'POST', `/api/notifications/${mine?.id}/acknowledge`);
      expect(acknowledged.status).toBe(200);
      expect(acknowledged.body.acknowledged_by).toEqual({
        id: other.user.id,
        name: `${other.user.firstName} ${other.user.lastName}`,
      });
      await h.call(token, 'POST', `/api/notifications/${leak?.id}/read`);
      await h.advance(15 * MINUTE);
      const quiet = about(await h.inbox(token), id, 'safety')[0];
      expect(quiet).toMatchObject({ read: true, acknowledged_by: { id: other.user.id } });
      const log = await h.call(token, 'GET', `/api/activity?kind=alert.acknowledge&device_id=${id}`);
      expect(log.body.entries).toHaveLength(1);
      expect(log.body.entries[0]).toMatchObject({
        actor: { id: other.user.id },
        result: 'ok',
        device_id: id,
      });

      await h.report(name, { water_leak: false });
      await h.settle(name, (device) => device.state.water_leak === false);
      const cleared = about(await h.inbox(token), id, 'safety')[0];
      expect(cleared).toMatchObject({ title: 'Bathroom leak: Leak cleared', read: false });
    });

    it("hub: Zigbee2MQTT's bridge away for more than a minute tells the admins only", async () => {
      const admin = await h.person('admin');
      const resident = await h.person('resident');
      await h.z2m.publish('bridge/state', { state: 'offline' }, true);
      await waitForBridge(h, 'offline');
      // The beat that sees it away starts the minute.
      await h.advance(0);
      await h.advance(59_000);
      expect((await h.inbox(admin.token, '?kind=hub')).notifications).toEqual([]);
      await h.advance(2000);
      const [away] = (await h.inbox(admin.token, '?kind=hub')).notifications;
      expect(away).toMatchObject({
        kind: 'hub',
        severity: 'warning',
        title: 'Hearth: Zigbee2MQTT offline',
        device_id: null,
      });
      expect((await h.inbox(resident.token, '?kind=hub')).notifications).toEqual([]);
      await h.z2m.publish('bridge/state', { state: 'online' }, true);
      await waitForBridge(h, 'online');
      await h.advance(1000);
      expect((await h.inbox(admin.token, '?kind=hub')).notifications[0]).toMatchObject({
        id: away?.id,
        title: 'Hearth: Zigbee2MQTT back online',
      });
    });

    it('mutes: "Don\'t alert for this device" resolves its incident quietly and opens none', async () => {
      const { token } = await h.person('resident');
      const id = await h.idOf('Desk plug');
      await h.availability('Desk plug', true);
      await h.settle('Desk plug', (device) => device.online);
      await h.availability('Desk plug', false);
      await h.settle('Desk plug', (device) => !device.online);
      await h.advance(10 * MINUTE);
      const [open] = about(await h.inbox(token), id, 'offline');
      expect(open?.resolved_at).toBeNull();
      await h.call(token, 'POST', `/api/notifications/${open?.id}/read`);

      expect((await h.call(token, 'PUT', `/api/alerts/devices/${id}`, { muted: true })).body).toEqual({
        device_id: id,
        muted: true,
      });
      const quiet = about(await h.inbox(token), id, 'offline')[0];
      expect(quiet?.resolved_at).not.toBeNull();
      expect(quiet?.read).toBe(true);
      expect((await h.call(token, 'GET', '/api/alerts/devices')).body.devices).toContainEqual({
        device_id: id,
        muted: true,
      });

      await h.availability('Desk plug', true);
      await h.settle('Desk plug', (device) => device.online);
      await h.availability('Desk plug', false);
      await h.settle('Desk plug', (device) => !device.online);
      await h.advance(20 * MINUTE);
      expect(about(await h.inbox(token, '?status=open'), id, 'offline')).toEqual([]);
      const user = await h.person('user');
      expect((await h.call(user.token, 'PUT', `/api/alerts/devices/${id}`, { muted: false })).status).toBe(
        403,
      );
    });

    it('access rules decide who is told: a user with a rule for the sensor, not one without', async () => {
      const admin = await h.person('admin');
      const viewer = await h.person('user');
      const stranger = await h.person('user');
      const narrowed = await h.person('resident');
      const id = await h.idOf('Cellar leak');
      await h.call(admin.token, 'PUT', `/api/access/${viewer.user.id}`, {
        rooms: {},
        devices: { [id]: 'view' },
      });
      await h.call(admin.token, 'PUT', `/api/access/${narrowed.user.id}`, {
        rooms: {},
        devices: { [id]: 'none' },
      });
      await h.report('Cellar leak', { water_leak: true });
      await h.settle('Cellar leak', (device) => device.state.water_leak === true);
      expect(about(await h.inbox(viewer.token), id, 'safety')).toHaveLength(1);
      expect(about(await h.inbox(admin.token), id, 'safety')).toHaveLength(1);
      expect((await h.inbox(stranger.token)).notifications).toEqual([]);
      expect(about(await h.inbox(narrowed.token), id, 'safety')).toEqual([]);
      const theirs = about(await h.inbox(admin.token), id, 'safety')[0];
      expect(
        (await h.call(stranger.token, 'POST', `/api/notifications/${theirs?.id}/acknowledge`)).status,
      ).toBe(404);
    });
  });
});

/** Waits until the hub reports Zigbee2MQTT's bridge `state`. */
async function waitForBridge(h: AlertsHousehold, state: string) {
  const { token } = await h.person('admin');
  await waitFor(async () => (await h.call(token, 'GET', '/api/devicehub/status')).body.bridge === state);
}

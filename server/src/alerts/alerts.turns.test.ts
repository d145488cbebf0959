import { DEFAULT_ALERT_SETTINGS } from '@hearth/contracts';
import { describe, expect, it } from 'vitest';
import { watchLoopHold } from '../../test/loop-hold.js';
import { waitFor } from '../../test/wait.js';
import { alertDevices, useAlertsHousehold } from './alerts-test-kit.js';

const SENSORS = 40;
const names = Array.from({ length: SENSORS }, (_, i) => `Sensor ${i + 1}`);

/**
 * docs/alerts.md#rules: incidents are raised away from the device stream's path. On SQLite every
 * query answers synchronously, so a burst of incidents (an admin raising the battery threshold
 * over a household of sensors) must give the event loop turns between them, or the stream's
 * messages wait behind the whole burst.
 */
describe('alerts leave the event loop turns while a burst of incidents opens (SQLite)', () => {
  const h = useAlertsHousehold({ devices: alertDevices({ leaks: names }) });

  it('opens forty battery incidents, none of them holding the loop for more than a share of the burst', async () => {
    const { token: admin } = await h.person('admin');
    const { token: resident } = await h.person('resident');
    for (const name of names) await h.report(name, { battery: 30, water_leak: false });
    await waitFor(async () => {
      const listed = (await h.call(admin, 'GET', '/api/devicehub/devices')).body as {
        state: { battery?: number };
      }[];
      return listed.filter((device) => device.state.battery === 30).length === SENSORS;
    });
    await h.app.alerts.tick();

    const hold = watchLoopHold();
    const before = process.cpuUsage();
    const raised = await h.call(admin, 'PUT', '/api/alerts/settings', {
      ...DEFAULT_ALERT_SETTINGS,
      battery_below: 40,
    });
    expect(raised.status).toBe(200);
    await h.app.alerts.tick();
    const page = await h.inboxUntil(
      resident,
      (inbox) => inbox.notifications.filter((each) => each.kind === 'battery').length === SENSORS,
    );
    const spent = process.cpuUsage(before);
    hold.stop();
    const total = (spent.user + spent.system) / 1000;

    expect(page.notifications.filter((each) => each.kind === 'battery')[0]?.body).toBe('Battery at 30 %.');
    // One task for the whole burst would hold the loop for nearly all of its time; a turn per
    // device and per step keeps each hold to a small part of it (a fortieth and a little more).
    // The margin is for what else this process's threads spend meanwhile (V8's collector), which
    // the CPU clock counts as well.
    expect(hold.worst()).toBeLessThan(total / 3);
  });
});

import type { DevicehubStatus } from '@hearth/contracts';
import { afterEach, describe, expect, it } from 'vitest';
import { sqliteDatabase } from '../../test/databases.js';
import { type RestartableBroker, restartableBrokers } from '../../test/restartable-broker.js';
import {
  byName,
  type Household,
  listenForBrowsers,
  startHousehold,
  streamClient,
  waitFor,
} from './devicehub-test-kit.js';

describe.each(restartableBrokers())('device hub when the $name goes away and comes back', ({ start }) => {
  const database = sqliteDatabase();
  let broker: RestartableBroker | undefined;
  let h: Household | undefined;
  afterEach(async () => {
    await h?.close();
    await broker?.stop();
    await database.drop();
  });

  it('tells REST and browsers, refuses commands, and re-reads stale devices rate-limited once back', async () => {
    broker = await start();
    const started = await startHousehold(database, broker.url);
    h = started.household;
    const household = h;
    const { resident, prefix } = started;
    await household.z2m.publishDevices();
    await waitFor(async () => ((await household.list()).length === 4 ? true : undefined));
    await household.z2m.publish('Living room/Lamp', { state: 'ON', brightness: 50 });
    await waitFor(async () => byName(await household.list(), 'Living room/Lamp')?.state.brightness === 50);
    const browser = await streamClient(await listenForBrowsers(household.app), resident, prefix);
    const call = (url: string, method: 'GET' | 'POST' = 'GET', payload?: object) =>
      household.app.app.inject({
        method,
        url,
        headers: { authorization: `Bearer ${resident}` },
        ...(payload ? { payload } : {}),
      });
    const statuses = () =>
      browser.messages
        .filter((m) => m.topic === `${prefix}/devicehub/events/hub.status`)
        .map((m) => JSON.parse(m.payload) as DevicehubStatus);
    try {
      await waitFor(() => statuses().at(-1)?.bus === 'online');
      expect((await call('/api/devicehub/status')).json()).toMatchObject({ bus: 'online' });

      const killed = Date.now();
      await broker.kill();
      const offline = await waitFor(() =>
        statuses().at(-1)?.bus === 'offline' ? statuses().at(-1) : undefined,
      );
      expect(Date.parse(offline.since)).toBeGreaterThanOrEqual(killed - 1000);
      expect((await call('/api/devicehub/status')).json()).toEqual(offline);
      const lamp = byName(await household.list(), 'Living room/Lamp')!;
      const command = await call(`/api/devicehub/devices/${lamp.id}/commands`, 'POST', {
        state: { on: true },
      });
      expect([command.statusCode, command.json().error]).toEqual([503, 'Device bus is not connected']);
      expect(await household.list()).toHaveLength(4);

      await new Promise((resolve) => setTimeout(resolve, 2000));
      await broker.start();
      const back = Date.now();
      await waitFor(() => statuses().at(-1)?.bus === 'online', 5000);
      expect(Date.now() - back, 'hub back online after the broker').toBeLessThanOrEqual(3000);
      // Zigbee2MQTT publishes its retained list again when it reconnects.
      await waitFor(() => household.z2m.client.connected || undefined);
      await household.z2m.publishDevices();

      // Lamp and stairs switch have gettable properties; sensors and remotes have none.
      const gets = await waitFor(
        () => (household.z2m.gets.length >= 2 ? household.z2m.gets : undefined),
        5000,
      );
      expect(gets.map((g) => g.name).sort()).toEqual(['Living room/Lamp', 'Stairs switch']);
      expect(gets.find((g) => g.name === 'Living room/Lamp')?.payload).toEqual({
        state: '',
        brightness: '',
        color_temp: '',
        color: '',
        power_on_behavior: '',
      });
      expect(Math.abs((gets[1]?.at ?? 0) - (gets[0]?.at ?? 0))).toBeGreaterThanOrEqual(80);
      expect((await call('/api/devicehub/status')).json()).toMatchObject({ bus: 'online' });
      await waitFor(async () => {
        await household.z2m.publish('Living room/Lamp', { state: 'ON', brightness: 9 });
        return byName(await household.list(), 'Living room/Lamp')?.state.brightness === 9 ? true : undefined;
      });
      const sent = await call(`/api/devicehub/devices/${lamp.id}/commands`, 'POST', { state: { on: false } });
      expect(sent.statusCode).toBe(200);
      expect((await household.list()).length).toBe(4);
    } finally {
      browser.client.end(true);
    }
  }, 40_000);
});

import { afterAll, describe, expect, it } from 'vitest';
import { sqliteDatabase } from '../../test/databases.js';
import {
  byName,
  listenForBrowsers,
  startHousehold,
  streamClient,
  testBuses,
  useHousehold,
  waitFor,
} from './devicehub-test-kit.js';

// Zigbee2MQTT's retained bridge/state: nothing here is stored, so one database (SQLite) will do.
describe.each(testBuses())('Zigbee2MQTT bridge/state on the $name', ({ url }) => {
  const h = useHousehold({ bus: url });
  // The retained state is the broker's: cleared before the household goes.
  afterAll(() => h.z2m.publish('bridge/state', '', true));
  const lamp = async () => waitFor(async () => byName(await h.list(), 'Living room/Lamp'));
  const switchOn = async () => {
    const response = await h.command((await lamp()).id, { state: { on: true } });
    return [response.statusCode, response.json().error ?? response.json().data?.status];
  };
  const bridge = async () => (await h.call('GET', '/api/devicehub/status')).json().bridge;

  it('sends commands while the bridge has not said (unknown)', async () => {
    expect(await bridge()).toBeNull();
    expect(await switchOn()).toEqual([200, 'sent']);
  });

  it('answers 503 "Device bridge offline" to commands and renames while bridge/state is offline, and tells browsers', async () => {
    const ws = await listenForBrowsers(h.app);
    const browser = await streamClient(ws, h.resident, h.prefix);
    try {
      await h.z2m.publish('bridge/state', { state: 'offline' }, true);
      await waitFor(async () => (await bridge()) === 'offline');
      expect(await switchOn()).toEqual([503, 'Device bridge offline']);
      const rename = await h.call('PATCH', `/api/devicehub/devices/${(await lamp()).id}`, { name: 'Lamp 2' });
      expect([rename.statusCode, rename.json().error]).toEqual([503, 'Device bridge offline']);
      expect(byName(await h.list(), 'Living room/Lamp')).toBeDefined();
      const statuses = () =>
        browser.messages
          .filter((m) => m.topic.endsWith('/events/hub.status'))
          .map((m) => JSON.parse(m.payload));
      await waitFor(() => statuses().at(-1)?.bridge === 'offline');
      expect(statuses().at(-1)).toMatchObject({ bus: 'online', bridge: 'offline' });

      // Legacy plain payloads (Zigbee2MQTT before 1.29) count too.
      await h.z2m.publish('bridge/state', 'online', true);
      await waitFor(() => statuses().at(-1)?.bridge === 'online');
      expect(await switchOn()).toEqual([200, 'sent']);
      await h.z2m.publish('bridge/state', 'offline', true);
      await waitFor(async () => (await bridge()) === 'offline');
      expect(await switchOn()).toEqual([503, 'Device bridge offline']);
      await h.z2m.publish('bridge/state', { state: 'online' }, true);
      await waitFor(async () => (await bridge()) === 'online');
      expect(await switchOn()).toEqual([200, 'sent']);
    } finally {
      await browser.client.endAsync();
    }
  });

  it.runIf(url)(
    'reads a retained offline bridge/state at start (a second instance on the same broker)',
    async () => {
      await h.z2m.publish('bridge/state', { state: 'offline' }, true);
      await waitFor(async () => (await bridge()) === 'offline');
      const otherDatabase = sqliteDatabase();
      const second = await startHousehold(otherDatabase, url, {
        base: h.z2m.base,
        prefix: `${h.prefix}-2`,
      });
      try {
        const response = await waitFor(async () => {
          const listed = byName(await second.household.list(), 'Living room/Lamp');
          if (!listed) return undefined;
          return second.household.command(listed.id, { state: { on: true } });
        });
        expect([response.statusCode, response.json().error]).toEqual([503, 'Device bridge offline']);
      } finally {
        await second.household.app.close();
        await second.household.z2m.client.endAsync();
        await otherDatabase.drop();
      }
    },
  );
});

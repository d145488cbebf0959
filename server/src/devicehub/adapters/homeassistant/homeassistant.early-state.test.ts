import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestDatabase, testDatabases } from '../../../../test/databases.js';
import { type Household, startHousehold, testBuses, waitFor } from '../../devicehub-test-kit.js';

// A producer that publishes a device's config and its first state together (ESPHome at boot, a
// script): the state may come before Hearth has read the config (configs are read in slices), is
// held, and is applied when the config arrives. Held or not, it is a fresh message: the device is
// online and heard from, as a Zigbee2MQTT device without availability is with its first fresh state.

describe.each(testDatabases())('Home Assistant state ahead of its config ($name)', ({ create }) => {
  describe.each(testBuses())('on the $name', ({ url }) => {
    let database: TestDatabase;
    let h: Household;
    let ha: string;
    beforeAll(async () => {
      database = await create();
      ({ household: h, haPrefix: ha } = await startHousehold(database, url));
      await h.publishDevicesAndWait(4);
    });
    afterAll(async () => {
      await h?.z2m.client.publishAsync(`${ha}/sensor/porch/temperature/config`, '', { retain: true });
      await h?.close();
      await database?.drop();
    });

    it('takes a fresh state held for its config as fresh: online, with the time it was heard', async () => {
      const before = Date.now();
      await h.z2m.client.publishAsync(
        `${ha}/sensor/porch/temperature/config`,
        JSON.stringify({
          name: 'Temperature',
          stat_t: `${ha}/porch/t`,
          unit_of_meas: '°C',
          dev: { ids: 'porch-1', name: 'Porch sensor' },
        }),
        { retain: true },
      );
      await h.z2m.client.publishAsync(`${ha}/porch/t`, '18.5');
      const porch = await waitFor(async () => {
        const found = (await h.list()).find((d) => d.external_id === 'porch-1');
        return found?.state.temperature === 18.5 ? found : undefined;
      }, 10_000);
      await waitFor(async () => (await h.list()).find((d) => d.id === porch.id && d.online), 5_000);
      const heard = (await h.list()).find((d) => d.id === porch.id);
      expect(heard?.last_seen && Date.parse(heard.last_seen)).toBeGreaterThanOrEqual(before - 1000);
    });
  });
});

import pino from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { sqliteDatabase } from '../../test/databases.js';
import { startEmbeddedBroker } from '../bus/embedded-broker.js';
import { ScriptedZigbee2mqtt } from './adapters/zigbee2mqtt/fixtures/scripted-zigbee2mqtt.js';
import { byName, freePort, startHousehold, waitFor } from './devicehub-test-kit.js';

const log = pino({ level: 'silent' });

describe('device hub when the bus goes away and comes back', () => {
  const database = sqliteDatabase();
  afterAll(() => database.drop());

  it('keeps every device while the broker is down and listens again once it is back', async () => {
    const port = await freePort();
    let broker = await startEmbeddedBroker({ listenPort: port, host: '127.0.0.1', log });
    const url = `mqtt://127.0.0.1:${port}`;
    const { household: h } = await startHousehold(database, url);
    try {
      await h.z2m.publishDevices();
      await waitFor(async () => ((await h.list()).length === 4 ? true : undefined));

      await h.z2m.client.endAsync(true);
      await broker.close();
      await waitFor(() => (h.app.bus.connected ? undefined : true));
      expect((await h.list()).length).toBe(4);
      const lamp = byName(await h.list(), 'Living room/Lamp')!;
      const refused = await h.app.app.inject({
        method: 'POST',
        url: `/api/devicehub/devices/${lamp.id}/commands`,
        headers: { authorization: `Bearer ${await h.token('resident')}` },
        payload: { state: { on: true } },
      });
      expect(refused.statusCode).toBe(503);

      broker = await startEmbeddedBroker({ listenPort: port, host: '127.0.0.1', log });
      await waitFor(() => (h.app.bus.connected ? true : undefined), 15_000);
      // A new Zigbee2MQTT connection publishes its retained list again and then state.
      h.z2m = await ScriptedZigbee2mqtt.connect(url, h.z2m.base);
      await h.z2m.publishDevices();
      await waitFor(async () => {
        await h.z2m.publish('Living room/Lamp', { state: 'ON', brightness: 9 });
        return byName(await h.list(), 'Living room/Lamp')?.state.brightness === 9 ? true : undefined;
      }, 10_000);
      expect((await h.list()).length).toBe(4);
    } finally {
      await h.close();
      await broker.close();
    }
  });
});

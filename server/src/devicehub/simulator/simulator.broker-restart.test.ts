import mqtt from 'mqtt';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { type RestartableBroker, restartableBrokers } from '../../../test/restartable-broker.js';
import { type Bus, connectBus } from '../../bus/bus.js';
import { Zigbee2mqttSimulator } from './simulator.js';

const log = pino({ level: 'silent' });

describe.each(restartableBrokers())('simulator when the $name restarts', ({ start }) => {
  let broker: RestartableBroker | undefined;
  let bus: Bus | undefined;
  let simulator: Zigbee2mqttSimulator | undefined;
  afterEach(async () => {
    await simulator?.stop();
    await bus?.close();
    await broker?.stop();
  });

  // On a shared bus it publishes on a connection of its own (with its last will), which says when it is back.
  it.each([
    { bus: 'its own', sharedBus: false },
    { bus: 'a shared', sharedBus: true },
  ])(
    'publishes its retained list and availability again once it is back (as Zigbee2MQTT does), on $bus bus',
    async ({ sharedBus }) => {
      broker = await start();
      bus = await connectBus({ mqttUrl: broker.url, log });
      const base = `z2m-sim-${crypto.randomUUID().slice(0, 8)}`;
      simulator = new Zigbee2mqttSimulator({
        bus,
        baseTopic: base,
        devices: 5,
        log,
        updatesPerSecond: 0.1,
        sharedBus,
        claimWaitMs: 30,
      });
      await simulator.start();
      expect(simulator.isRunning()).toBe(true);

      // A broker without persistence comes back empty: nothing retained.
      await broker.kill();
      await broker.start();

      const late = await mqtt.connectAsync(broker.url, { reconnectPeriod: 0 });
      try {
        const retained = new Map<string, string>();
        late.on('message', (topic, payload, packet) => {
          if (packet.retain) retained.set(topic.slice(base.length + 1), payload.toString());
        });
        await late.subscribeAsync([
          `${base}/bridge/devices`,
          `${base}/bridge/state`,
          `${base}/+/availability`,
        ]);
        const end = Date.now() + 10_000;
        while ((!retained.has('bridge/devices') || retained.size < 7) && Date.now() < end) {
          await late.unsubscribeAsync([
            `${base}/bridge/devices`,
            `${base}/bridge/state`,
            `${base}/+/availability`,
          ]);
          await new Promise((resolve) => setTimeout(resolve, 200));
          await late.subscribeAsync([
            `${base}/bridge/devices`,
            `${base}/bridge/state`,
            `${base}/+/availability`,
          ]);
        }
        expect(JSON.parse(retained.get('bridge/devices') ?? '[]')).toHaveLength(6);
        expect(JSON.parse(retained.get('bridge/state') ?? '{}')).toEqual({ state: 'online' });
        expect([...retained.keys()].filter((topic) => topic.endsWith('/availability'))).toHaveLength(5);
      } finally {
        await late.endAsync(true);
      }
    },
    30_000,
  );
});

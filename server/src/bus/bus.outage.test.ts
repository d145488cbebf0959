import mqtt from 'mqtt';
import { afterEach, describe, expect, it } from 'vitest';
import { LogCapture } from '../../test/app.js';
import {
  type RestartableBroker,
  restartableBrokers,
  startOwnMosquitto,
} from '../../test/restartable-broker.js';
import { serviceUrl } from '../../test/services.js';
import { createLogger } from '../logging/logger.js';
import { type BusStatus, connectBus, reconnectDelay } from './bus.js';

const brokers = restartableBrokers();

const until = async (check: () => boolean, ms: number) => {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
};

describe('reconnect delay', () => {
  it('doubles from 250 ms, at most 2 s in the first minute of an outage, then at most 5 s', () => {
    expect([0, 1, 2, 3, 4, 9].map((attempt) => reconnectDelay(attempt, 10_000))).toEqual([
      250, 500, 1000, 2000, 2000, 2000,
    ]);
    expect(reconnectDelay(9, 61_000)).toBe(5000);
  });
});

describe.each(brokers)('the bus when the $name goes away', ({ start }) => {
  let broker: RestartableBroker | undefined;
  afterEach(async () => {
    await broker?.stop();
  });

  it('reports each outage and recovery, logs each once, and is back within 2.5 s of the broker', async () => {
    broker = await start();
    const logs = new LogCapture();
    const bus = await connectBus({ mqttUrl: broker.url, log: createLogger('info', logs) });
    const statuses: BusStatus[] = [];
    bus.onStatus((status) => statuses.push(status));
    try {
      expect(bus.status().bus).toBe('online');
      const recoveries: number[] = [];
      for (let outage = 1; outage <= 2; outage++) {
        await broker.kill();
        await until(() => bus.status().bus === 'offline', 5000);
        // Long enough for doubling delays (1 s, 2 s, 4 s…) to overshoot by seconds.
        await new Promise((resolve) => setTimeout(resolve, 3500));
        await broker.start();
        const back = Date.now();
        await until(() => bus.status().bus === 'online', 10_000);
        recoveries.push(Date.now() - back);
      }
      expect(statuses.map((s) => s.bus)).toEqual(['offline', 'online', 'offline', 'online']);
      for (const status of statuses) expect(Date.parse(status.since)).toBeGreaterThan(Date.now() - 60_000);
      for (const ms of recoveries) expect(ms, `back ${ms} ms after the broker`).toBeLessThanOrEqual(2500);

      const lines = logs.lines.map((line) => JSON.parse(line));
      expect(lines.filter((l) => l.msg === 'bus offline; reconnecting')).toHaveLength(2);
      expect(lines.filter((l) => l.msg === 'bus reconnected')).toHaveLength(2);
      // One line per distinct error per outage, with its code readable.
      const errors = lines.filter((l) => l.msg === 'bus error');
      expect(errors.filter((l) => l.err?.code === 'ECONNREFUSED')).toHaveLength(2);
    } finally {
      await bus.close();
    }
  }, 40_000);
});

describe.skipIf(!serviceUrl('TEST_MQTT_URL'))('the bus on two connections (an upstream Mosquitto)', () => {
  it('is offline while either connection is down, sends and receives on separate ones, and heals both', async () => {
    const broker = await startOwnMosquitto();
    const logs = new LogCapture();
    const bus = await connectBus({
      mqttUrl: broker.url,
      log: createLogger('info', logs),
      clientId: 'hearth-two',
    });
    const statuses: BusStatus[] = [];
    bus.onStatus((status) => statuses.push(status));
    try {
      expect(bus.status().bus).toBe('online');
      const received: string[] = [];
      await bus.subscribe('two/+', (topic, payload) => received.push(`${topic} ${payload}`));
      await bus.publish('two/a', 'one');
      await until(() => received.length === 1, 2000);

      // A client that takes over the sending connection's client id ends that connection alone.
      const intruder = await mqtt.connectAsync(broker.url, { clientId: 'hearth-two-tx', reconnectPeriod: 0 });
      await until(() => bus.status().bus === 'offline', 5000);
      await intruder.endAsync();
      await until(() => bus.status().bus === 'online', 5000);
      expect(statuses.map((s) => s.bus)).toEqual(['offline', 'online']);

      await bus.publish('two/b', 'two');
      await until(() => received.length === 2, 2000);
      expect(received).toEqual(['two/a one', 'two/b two']);
      const lines = logs.lines.map((line) => JSON.parse(line));
      expect(lines.filter((l) => l.msg === 'bus offline; reconnecting')).toHaveLength(1);
      expect(lines.filter((l) => l.msg === 'bus reconnected')).toHaveLength(1);
    } finally {
      await bus.close();
      await broker.stop();
    }
  }, 30_000);
});

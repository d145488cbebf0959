import type net from 'node:net';
import mqtt from 'mqtt';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../test/ports.js';
import { serviceUrl } from '../../test/services.js';
import { type Bus, connectBus, topicMatches } from './bus.js';

const log = pino({ level: 'silent' });

describe('topicMatches', () => {
  it.each([
    ['a/#', 'a/b/c', true],
    ['a/+/c', 'a/b/c', true],
    ['a/+', 'a/b/c', false],
    ['a/b', 'a/b', true],
    ['#', 'anything/at/all', true],
    ['a/b/c', 'a/b', false],
  ])('%s matches %s: %s', (filter, topic, expected) => {
    expect(topicMatches(filter, topic)).toBe(expected);
  });
});

const mosquittoUrl = serviceUrl('TEST_MQTT_URL');
if (!mosquittoUrl) console.warn('[skipped] bus tests on an external broker: TEST_MQTT_URL is not set');
const buses = [
  { name: 'embedded broker', url: undefined },
  ...(mosquittoUrl ? [{ name: `external broker ${mosquittoUrl}`, url: mosquittoUrl }] : []),
];

describe.each(buses)('bus on the $name', ({ url }) => {
  let bus: Bus;
  let other: Bus;
  const root = `hearth-test/${crypto.randomUUID()}`;

  beforeAll(async () => {
    bus = await connectBus({ mqttUrl: url, log });
    // A second client on the same broker (for the embedded one: a second embedded broker would
    // be a different bus, so only the external case gets a separate connection).
    other = url ? await connectBus({ mqttUrl: url, log }) : bus;
  });
  afterAll(async () => {
    if (other !== bus) await other?.close();
    await bus?.close();
  });

  it('is connected and delivers a published message to a matching subscription only', async () => {
    expect(bus.connected).toBe(true);
    const received: string[] = [];
    const gotIt = new Promise<void>((resolve) => {
      void other.subscribe(`${root}/devices/+`, (topic, payload) => {
        received.push(`${topic}=${payload.toString()}`);
        resolve();
      });
    });
    await new Promise((r) => setTimeout(r, 100));
    await bus.publish(`${root}/other/x`, 'ignored');
    await bus.publish(`${root}/devices/lamp`, '{"state":"ON"}');
    await gotIt;
    expect(received).toEqual([`${root}/devices/lamp={"state":"ON"}`]);
  });

  it('hands a retained message to a late subscriber', async () => {
    await bus.publish(`${root}/retained`, 'kept', { retain: true, qos: 1 });
    const payload = await new Promise<string>((resolve) => {
      void other.subscribe(`${root}/retained`, (_topic, message, retained) => {
        if (retained) resolve(message.toString());
      });
    });
    expect(payload).toBe('kept');
    await bus.publish(`${root}/retained`, '', { retain: true, qos: 1 });
  });

  it('delivers a retained message followed at once by others to a live subscriber', async () => {
    // Zigbee2MQTT publishes its retained device list and then a burst of state messages.
    const received: string[] = [];
    await other.subscribe(`${root}/burst/#`, (topic) => received.push(topic.slice(root.length + 7)));
    await new Promise((r) => setTimeout(r, 100));
    await Promise.all([
      bus.publish(`${root}/burst/list`, JSON.stringify({ devices: 'x'.repeat(50_000) }), { retain: true }),
      ...Array.from({ length: 20 }, (_, i) => bus.publish(`${root}/burst/state${i}`, '{}')),
    ]);
    for (let tries = 0; received.length < 21 && tries < 50; tries++)
      await new Promise((r) => setTimeout(r, 50));
    expect(received).toContain('list');
    expect(received).toHaveLength(21);
    await bus.publish(`${root}/burst/list`, '', { retain: true });
  });

  it('keeps dispatching when one handler throws', async () => {
    await bus.subscribe(`${root}/boom`, () => {
      throw new Error('handler bug');
    });
    const delivered = new Promise<string>((resolve) => {
      void bus.subscribe(`${root}/boom`, (_t, payload) => resolve(payload.toString()));
    });
    await new Promise((r) => setTimeout(r, 100));
    await bus.publish(`${root}/boom`, 'still here');
    expect(await delivered).toBe('still here');
  });
});

describe('the embedded broker with a Zigbee2MQTT on its TCP port', () => {
  it('forwards a steady stream of state messages without holding them back (no Nagle delay)', async () => {
    // Zigbee2MQTT publishes state while the hub publishes too (commands, the simulator). With
    // Nagle's algorithm on the broker's socket to the hub, a message then waits for the hub's
    // delayed ACK (40 ms on Linux) whenever the one before it is still unacknowledged.
    const port = await freePort();
    const credentials = { username: 'zigbee2mqtt', password: 'a-test-password' };
    const hub = await connectBus({
      embedded: { external: { host: '127.0.0.1', port, credentials, topicRoots: ['zigbee2mqtt'] } },
      log,
    });
    const z2m = await mqtt.connectAsync(`mqtt://127.0.0.1:${port}`, { protocolVersion: 4, ...credentials });
    (z2m.stream as net.Socket).setNoDelay(true);
    const chatter = setInterval(() => {
      for (let i = 0; i < 5; i++) void hub.publish(`hearth-test/chatter${i}`, 'x');
    }, 100);
    try {
      const latencies: number[] = [];
      await hub.subscribe('zigbee2mqtt/+', (_topic, payload) => {
        latencies.push(performance.now() - Number(payload.toString()));
      });
      // About 1000 messages a second for one second, in bursts of five.
      for (let round = 0; round < 200; round++) {
        for (let i = 0; i < 5; i++) z2m.publish(`zigbee2mqtt/sensor${i}`, String(performance.now()));
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(latencies).toHaveLength(1000);
      // A loaded test machine delays the odd message; with Nagle about one in five waits.
      const slow = latencies.filter((ms) => ms > 25).length;
      expect(slow, `${slow} of 1000 messages took over 25 ms`).toBeLessThan(50);
    } finally {
      clearInterval(chatter);
      await z2m.endAsync(true);
      await hub.close();
    }
  });
});

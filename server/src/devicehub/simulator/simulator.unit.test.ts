import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Bus, MessageHandler } from '../../bus/bus.js';
import { Zigbee2mqttSimulator } from './simulator.js';

function recordingBus() {
  const published: { topic: string; payload: string; retain: boolean }[] = [];
  const handlers = new Map<string, MessageHandler>();
  const bus: Bus = {
    description: 'recording',
    connected: true,
    status: () => ({ bus: 'online', since: new Date(0).toISOString() }),
    onStatus: () => () => {},
    publish: async (topic, payload, options) => {
      published.push({ topic, payload: payload.toString(), retain: Boolean(options?.retain) });
    },
    subscribe: async (filter, handler) => {
      handlers.set(filter, handler);
      return () => handlers.delete(filter);
    },
    close: async () => {},
  };
  return { bus, published, handlers };
}

const silent = pino({ level: 'silent' });

/** A seeded generator, so a run is repeatable. */
const seeded = (seed: number) => () => {
  seed = (seed * 1103515245 + 12345) % 2 ** 31;
  return seed / 2 ** 31;
};

describe('simulator at scale', () => {
  afterEach(() => vi.useRealTimers());

  it('drives 2000 devices at the rate it is given, with one timer, and flips availability', async () => {
    vi.useFakeTimers();
    const { bus, published } = recordingBus();
    const simulator = new Zigbee2mqttSimulator({
      bus,
      baseTopic: 'z2m',
      devices: 2000,
      log: pino({ level: 'silent' }),
      updatesPerSecond: 1000,
      availabilityFlipsPerSecond: 2,
      random: seeded(7),
    });
    await simulator.start();
    const list = JSON.parse(published.find((p) => p.topic === 'z2m/bridge/devices')!.payload);
    expect(list).toHaveLength(2001);
    expect(new Set(list.map((d: { friendly_name: string }) => d.friendly_name)).size).toBe(2001);
    published.length = 0;

    await vi.advanceTimersByTimeAsync(10_000);
    const states = published.filter(
      (p) => !p.topic.includes('/availability') && !p.topic.includes('bridge/'),
    );
    expect(states.length).toBeGreaterThan(9500);
    expect(states.length).toBeLessThan(10_500);
    const offline = published.filter(
      (p) => p.topic.endsWith('/availability') && p.payload.includes('offline'),
    );
    expect(offline.length).toBeGreaterThan(5);

    await vi.advanceTimersByTimeAsync(45_000);
    const back = published.filter((p) => p.topic.endsWith('/availability') && p.payload.includes('"online"'));
    expect(back.length).toBeGreaterThanOrEqual(offline.length);

    simulator.setRate(10);
    published.length = 0;
    await vi.advanceTimersByTimeAsync(10_000);
    expect(published.filter((p) => !p.topic.includes('/availability')).length).toBeLessThan(150);
    await simulator.stop();
  });

  it('keeps renames in its data directory, so a restart keeps them (as Zigbee2MQTT does)', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-sim-'));
    const names = async () => {
      const { bus, published } = recordingBus();
      const simulator = new Zigbee2mqttSimulator({ bus, baseTopic: 'z2m', devices: 3, log: silent, dataDir });
      await simulator.start();
      const list = JSON.parse(published.find((p) => p.topic === 'z2m/bridge/devices')!.payload);
      await simulator.stop();
      return list.map((d: { friendly_name: string }) => d.friendly_name);
    };
    try {
      const { bus, published, handlers } = recordingBus();
      const simulator = new Zigbee2mqttSimulator({ bus, baseTopic: 'z2m', devices: 3, log: silent, dataDir });
      await simulator.start();
      const [, first] = JSON.parse(published.find((p) => p.topic === 'z2m/bridge/devices')!.payload);
      handlers.get('z2m/bridge/request/device/rename')!(
        'z2m/bridge/request/device/rename',
        Buffer.from(JSON.stringify({ from: first.friendly_name, to: 'Porch door', transaction: 't1' })),
        false,
      );
      await vi.waitFor(() =>
        expect(published.some((p) => p.topic === 'z2m/bridge/response/device/rename')).toBe(true),
      );
      await simulator.stop();
      expect(await names()).toContain('Porch door');
      expect(await names()).not.toContain(first.friendly_name);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

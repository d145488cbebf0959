import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Bus, LastWill, MessageHandler } from '../../bus/bus.js';
import { NAMES_FILE, SIMULATOR_MARKER, Zigbee2mqttSimulator } from './simulator.js';

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
      log: silent,
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

  it('keeps every device online with no drop-offs (SIMULATOR_DROPOUTS=off)', async () => {
    vi.useFakeTimers();
    const { bus, published } = recordingBus();
    const simulator = new Zigbee2mqttSimulator({
      bus,
      baseTopic: 'z2m',
      devices: 24,
      log: silent,
      availabilityFlipsPerSecond: 0,
      random: seeded(7),
    });
    await simulator.start();
    await vi.advanceTimersByTimeAsync(10 * 60_000);
    const availability = published.filter((p) => p.topic.endsWith('/availability'));
    expect(availability.length).toBeGreaterThan(0);
    expect(availability.filter((p) => p.payload.includes('offline'))).toEqual([]);
    await simulator.stop();
  });

  it('takes its names from the registry (a rename made through any instance), else from an old names file', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-sim-'));
    const names = async (storedNames?: () => Promise<Record<string, string>>) => {
      const { bus, published } = recordingBus();
      const simulator = new Zigbee2mqttSimulator({
        bus,
        baseTopic: 'z2m',
        devices: 3,
        log: silent,
        dataDir,
        ...(storedNames ? { storedNames } : {}),
      });
      await simulator.start();
      const list = JSON.parse(published.find((p) => p.topic === 'z2m/bridge/devices')!.payload);
      await simulator.stop();
      return list.map((d: { friendly_name: string }) => d.friendly_name);
    };
    try {
      const [, first, second, third] = await names();
      expect(await names(async () => ({ '0x00124b0000000001': 'Porch door' }))).toEqual([
        'Coordinator',
        'Porch door',
        second,
        third,
      ]);
      fs.writeFileSync(path.join(dataDir, NAMES_FILE), JSON.stringify({ '0x00124b0000000002': 'Old name' }));
      expect(await names()).toEqual(['Coordinator', first, 'Old name', third]);
      // The registry wins over the file.
      expect(await names(async () => ({ '0x00124b0000000002': 'Registry name' }))).toContain('Registry name');
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('simulator on a shared bus', () => {
  /** A bus on which another simulator's marker is retained (delivered on subscribe). */
  function busWithMarker(marker: object | undefined) {
    const recording = recordingBus();
    const subscribe = recording.bus.subscribe;
    recording.bus.subscribe = async (filter, handler) => {
      const unsubscribe = await subscribe(filter, handler);
      if (filter === `z2m/${SIMULATOR_MARKER}` && marker)
        handler(filter, Buffer.from(JSON.stringify(marker)), true);
      return unsubscribe;
    };
    return recording;
  }
  const options = {
    baseTopic: 'z2m',
    devices: 3,
    log: silent,
    sharedBus: true,
    claimWaitMs: 30,
    heartbeatMs: 100,
  };

  it("stands by while another instance's simulator keeps its marker fresh, and takes over once it is cleared", async () => {
    const { bus, published, handlers } = busWithMarker({ instance: 'other', since: 1, at: Date.now() });
    const simulator = new Zigbee2mqttSimulator({ bus, ...options });
    await simulator.start();
    expect(simulator.isRunning()).toBe(false);
    expect(published.filter((p) => p.topic === 'z2m/bridge/devices')).toEqual([]);
    // The other one stops cleanly: its marker is cleared.
    handlers.get(`z2m/${SIMULATOR_MARKER}`)!(`z2m/${SIMULATOR_MARKER}`, Buffer.alloc(0), true);
    await vi.waitFor(() => expect(simulator.isRunning()).toBe(true), { timeout: 2000 });
    expect(published.some((p) => p.topic === 'z2m/bridge/devices' && p.retain)).toBe(true);
    const marker = published.find((p) => p.topic === `z2m/${SIMULATOR_MARKER}`);
    expect(marker?.retain).toBe(true);
    expect(JSON.parse(marker!.payload).instance).not.toBe('other');
    published.length = 0;
    await simulator.stop();
    expect(published).toEqual([
      { topic: 'z2m/bridge/state', payload: '{"state":"offline"}', retain: true },
      { topic: `z2m/${SIMULATOR_MARKER}`, payload: '', retain: true },
    ]);
  });

  it('runs at once after a crash: the fresh marker it finds is its own (same DATA_DIR)', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-sim-'));
    try {
      const first = recordingBus();
      const crashed = new Zigbee2mqttSimulator({ bus: first.bus, ...options, dataDir });
      await crashed.start();
      const marker = JSON.parse(first.published.find((p) => p.topic === `z2m/${SIMULATOR_MARKER}`)!.payload);
      // Killed: no stop(), the marker stays. The restart on the same DATA_DIR finds it.
      const { bus } = busWithMarker(marker);
      const restarted = new Zigbee2mqttSimulator({ bus, ...options, dataDir });
      await restarted.start();
      expect(restarted.isRunning()).toBe(true);
      await restarted.stop();
      await crashed.stop();
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it("takes over at once when the bridge says offline (the other's last will: killed, its marker still fresh), and says online again", async () => {
    const { bus, published, handlers } = busWithMarker({ instance: 'other', since: 1, at: Date.now() });
    // A marker that would stay fresh for three minutes.
    const simulator = new Zigbee2mqttSimulator({ bus, ...options, heartbeatMs: 60_000 });
    await simulator.start();
    expect(simulator.isRunning()).toBe(false);
    handlers.get('z2m/bridge/state')!('z2m/bridge/state', Buffer.from('{"state":"offline"}'), false);
    expect(simulator.isRunning()).toBe(true);
    await vi.waitFor(() =>
      expect(published).toContainEqual({
        topic: 'z2m/bridge/state',
        payload: '{"state":"online"}',
        retain: true,
      }),
    );
    await simulator.stop();
  });

  it('runs when the bridge says offline at start though the marker is fresh (killed a moment ago)', async () => {
    const recording = busWithMarker({ instance: 'other', since: 1, at: Date.now() });
    const subscribe = recording.bus.subscribe;
    recording.bus.subscribe = async (filter, handler) => {
      const unsubscribe = await subscribe(filter, handler);
      if (filter === 'z2m/bridge/state') handler(filter, Buffer.from('{"state":"offline"}'), true);
      return unsubscribe;
    };
    const simulator = new Zigbee2mqttSimulator({ bus: recording.bus, ...options });
    await simulator.start();
    expect(simulator.isRunning()).toBe(true);
    await simulator.stop();
  });

  it('publishes on a connection of its own whose last will says the bridge is offline; a clean stop says so itself, then closes it without the will', async () => {
    const { bus, published } = recordingBus();
    const publisher: { will?: LastWill; sent: typeof published; closed: boolean } = {
      sent: [],
      closed: false,
    };
    bus.openPublisher = ({ will }) => {
      publisher.will = will;
      return {
        publish: async (topic, payload, options) => {
          publisher.sent.push({ topic, payload: payload.toString(), retain: Boolean(options?.retain) });
        },
        onReconnect: () => {},
        close: async () => {
          publisher.closed = true;
        },
      };
    };
    const simulator = new Zigbee2mqttSimulator({ bus, ...options });
    await simulator.start();
    expect(simulator.isRunning()).toBe(true);
    expect(publisher.will).toEqual({
      topic: 'z2m/bridge/state',
      payload: '{"state":"offline"}',
      retain: true,
    });
    expect(publisher.sent[0]).toEqual({
      topic: `z2m/${SIMULATOR_MARKER}`,
      payload: expect.any(String),
      retain: true,
    });
    expect(publisher.sent).toContainEqual({
      topic: 'z2m/bridge/state',
      payload: '{"state":"online"}',
      retain: true,
    });
    expect(published).toEqual([]);
    publisher.sent.length = 0;
    await simulator.stop();
    expect(publisher.sent.slice(0, 2)).toEqual([
      { topic: 'z2m/bridge/state', payload: '{"state":"offline"}', retain: true },
      { topic: `z2m/${SIMULATOR_MARKER}`, payload: '', retain: true },
    ]);
    expect(publisher.closed).toBe(true);
  });

  it('runs when the marker is stale (an instance killed without clearing it)', async () => {
    const { bus, published } = busWithMarker({ instance: 'other', since: 1, at: Date.now() - 10_000 });
    const simulator = new Zigbee2mqttSimulator({ bus, ...options });
    await simulator.start();
    expect(simulator.isRunning()).toBe(true);
    expect(published.some((p) => p.topic === 'z2m/bridge/devices')).toBe(true);
    await simulator.stop();
  });
});

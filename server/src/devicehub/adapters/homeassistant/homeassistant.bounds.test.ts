import { Writable } from 'node:stream';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { cpuTimeOf, watchLoopHold } from '../../../../test/loop-hold.js';
import { waitFor } from '../../../../test/wait.js';
import type { Bus, BusStatus, MessageHandler } from '../../../bus/bus.js';
import type { AdapterEvents, DeviceDescription } from '../adapter.js';
import { HomeAssistantAdapter } from './homeassistant.adapter.js';

// The adapter's bounds under hostile input, fed straight through the handler the bus would call:
// an in-memory stand-in for the bus (the broker adds nothing to what is measured here; the
// end-to-end behaviour on real brokers is homeassistant.adapter.test.ts).

class InMemoryBus implements Bus {
  readonly description = 'in-memory';
  readonly connected = true;
  readonly published: { topic: string; payload: string }[] = [];
  readonly subscribed: string[] = [];
  status(): BusStatus {
    return { bus: 'online', since: new Date().toISOString() };
  }
  onStatus() {
    return () => {};
  }
  async publish(topic: string, payload: string | Buffer) {
    this.published.push({ topic, payload: payload.toString() });
  }
  async subscribe(filter: string, _handler: MessageHandler) {
    this.subscribed.push(filter);
    return () => {};
  }
  async close() {}
}

function setup(options: { maxEntities?: number; configsPerSecond?: number } = {}) {
  const lines: Record<string, unknown>[] = [];
  const log = pino(
    { level: 'info' },
    new Writable({
      write(chunk, _encoding, done) {
        lines.push(JSON.parse(chunk.toString()));
        done();
      },
    }),
  );
  const bus = new InMemoryBus();
  const listed = new Map<string, DeviceDescription>();
  const states: Record<string, unknown>[] = [];
  const events: AdapterEvents = {
    devicesListed: (devices) => {
      for (const device of devices) listed.set(device.external_id, device);
    },
    deviceRemoved: (id) => listed.delete(id),
    stateReported: (_id, state) => states.push(state),
    availabilityChanged: () => {},
  };
  const adapter = new HomeAssistantAdapter({
    bus,
    prefix: 'ha',
    log,
    settleMs: 60_000,
    listDelayMs: 20,
    ...options,
  });
  const send = (topic: string, payload: unknown) =>
    adapter.onDiscoveryMessage(
      topic,
      Buffer.from(typeof payload === 'string' ? payload : JSON.stringify(payload)),
      true,
    );
  return { adapter, bus, lines, listed, states, events, send };
}

const sensor = (i: number) => ({
  name: 'Temperature',
  state_topic: `ha/sensor/t${i}/state`,
  unit_of_measurement: '°C',
  device: { identifiers: [`dev-${i}`], name: `Sensor ${i}` },
});

describe('Home Assistant discovery bounds', () => {
  it('reads a burst of 10 000 configs in slices: the event loop stays free, every device is listed', async () => {
    const { adapter, events, send, listed } = setup({ configsPerSecond: 20_000 });
    await adapter.start(events);
    const loop = watchLoopHold();
    try {
      for (let i = 0; i < 10_000; i++) send(`ha/sensor/t${i}/temp/config`, sensor(i));
      // Sending the burst is this test's own work: the loop is measured from here on.
      loop.reset();
      await waitFor(() => listed.size === 10_000 || undefined, 90_000);
    } finally {
      loop.stop();
      await adapter.stop();
    }
    // Reading and listing the burst goes in slices of 5 ms: the loop is never held for the whole
    // burst (a second or more of work), counted in this process's CPU time.
    expect(loop.worst()).toBeLessThan(250);
  }, 120_000);

  it('takes the same config again (a retained replay) without listing or subscribing anything again', async () => {
    const { adapter, bus, events, send, listed } = setup();
    const lists: number[] = [];
    const counting: AdapterEvents = {
      ...events,
      devicesListed: (devices, complete) => {
        lists.push(devices.length);
        events.devicesListed(devices, complete);
      },
    };
    await adapter.start(counting);
    try {
      const config = {
        ...sensor(1),
        state_topic: 'elsewhere/t1/state',
        availability_topic: 'elsewhere/t1/online',
      };
      send('ha/sensor/t1/temp/config', config);
      await waitFor(() => listed.size === 1 || undefined);
      const subscriptions = bus.subscribed.length;
      const listings = lists.length;
      for (let i = 0; i < 3; i++) send('ha/sensor/t1/temp/config', config);
      // A changed config keeps the topics it still uses subscribed.
      send('ha/sensor/t1/temp/config', { ...config, name: 'Renamed' });
      await waitFor(() => listed.get('dev-1')?.capabilities[0]?.name === 'Renamed' || undefined);
      expect(bus.subscribed.length).toBe(subscriptions);
      expect(lists.length).toBe(listings + 1);
    } finally {
      await adapter.stop();
    }
  });

  it('forgets a retained config by clearing its topic, and only a config topic under the prefix', async () => {
    const { adapter, bus, events } = setup();
    await adapter.start(events);
    try {
      expect(await adapter.forget('ha/sensor/ghost/config')).toBe(true);
      expect(await adapter.forget('elsewhere/sensor/ghost/config')).toBe(false);
      expect(await adapter.forget('ha/sensor/+/config')).toBe(false);
      expect(bus.published.filter((p) => p.topic !== 'ha/status')).toEqual([
        { topic: 'ha/sensor/ghost/config', payload: '' },
      ]);
    } finally {
      await adapter.stop();
    }
  });

  it('keeps at most 20 000 configs waiting, with one warning', async () => {
    const { adapter, events, send, lines } = setup({ configsPerSecond: 100 });
    await adapter.start(events);
    try {
      for (let i = 0; i < 20_500; i++) send(`ha/sensor/q${i}/temp/config`, '{}');
      expect(
        lines.filter(
          (l) => l.msg === 'too many home assistant configs at once; some skipped until they are sent again',
        ),
      ).toHaveLength(1);
    } finally {
      await adapter.stop();
    }
  });

  it('refuses a 256 KB config and configs beyond the entity bound, naming the topic and the reason', async () => {
    const { adapter, events, send, lines, listed } = setup({ maxEntities: 2 });
    await adapter.start(events);
    try {
      send('ha/sensor/big/config', { ...sensor(0), padding: 'x'.repeat(256 * 1024) });
      for (let i = 1; i <= 3; i++) send(`ha/sensor/s${i}/temp/config`, sensor(i));
      await waitFor(
        () =>
          lines.filter((l) => l.msg === 'home assistant discovery config refused').length === 2 || undefined,
      );
      expect(
        lines
          .filter((l) => l.msg === 'home assistant discovery config refused')
          .map((l) => [l.topic, l.reason]),
      ).toEqual([
        ['ha/sensor/big/config', 'config larger than 65536 bytes'],
        ['ha/sensor/s3/temp/config', 'more than 2 entities'],
      ]);
      await waitFor(() => listed.size === 2 || undefined);
      expect(adapter.rejected().map((r) => r.topic)).toEqual([
        'ha/sensor/s3/temp/config',
        'ha/sensor/big/config',
      ]);
    } finally {
      await adapter.stop();
    }
  });

  it('stops a template that loops on each message, marks the capability, and stops running it after three time-outs', async () => {
    const { adapter, events, send, listed, states } = setup();
    await adapter.start(events);
    try {
      send('ha/sensor/slow/config', {
        name: 'Slow',
        state_topic: 'ha/slow/state',
        value_template:
          '{% for i in range(9000) %}{% for j in range(9000) %}{% endfor %}{% endfor %}{{ value }}',
        device: { identifiers: ['slow-1'], name: 'Slow sensor' },
      });
      send('ha/sensor/fast/config', { ...sensor(7), state_topic: 'ha/fast/state' });
      await waitFor(() => listed.size === 2 || undefined);
      for (let i = 0; i < 5; i++) {
        expect(cpuTimeOf(() => send('ha/slow/state', String(i)))).toBeLessThan(200);
      }
      await waitFor(
        () => listed.get('slow-1')?.capabilities[0]?.error?.includes('template disabled') || undefined,
      );
      // The rest of the adapter carries on.
      send('ha/fast/state', '21.5');
      expect(states.at(-1)).toEqual({ fast: 21.5 });
    } finally {
      await adapter.stop();
    }
  });
});

describe('Home Assistant discovery timers', () => {
  it('turns a binary sensor off after its off_delay, and a sensor not heard within expire_after unknown', async () => {
    const { adapter, events, send, listed, states } = setup();
    await adapter.start(events);
    try {
      send('ha/binary_sensor/pir/motion/config', {
        state_topic: 'ha/pir/state',
        off_delay: 0.05,
        device: { identifiers: ['pir-1'], name: 'Hall PIR' },
      });
      send('ha/sensor/meter/power/config', {
        state_topic: 'ha/meter/state',
        unit_of_measurement: 'W',
        expire_after: 0.05,
        device: { identifiers: ['meter-1'], name: 'Meter' },
      });
      await waitFor(() => listed.size === 2 || undefined);
      send('ha/pir/state', 'ON');
      send('ha/meter/state', '40');
      expect(states.slice(-2)).toEqual([{ motion: true }, { power: 40 }]);
      await waitFor(() => states.some((s) => s.motion === false) || undefined);
      await waitFor(() => states.some((s) => s.power === null) || undefined);
    } finally {
      await adapter.stop();
    }
  });
});

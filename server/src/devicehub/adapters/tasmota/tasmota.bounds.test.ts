import { describe, expect, it } from 'vitest';
import { watchLoopHold } from '../../../../test/loop-hold.js';
import { waitFor } from '../../../../test/wait.js';
import type { AdapterEvents, DeviceDescription } from '../adapter.js';
import { capturedLog, InMemoryBus } from './fixtures/in-memory-bus.js';
import { discoveryConfig, relays, sensorsMessage } from './fixtures/tasmota-discovery.js';
import { TasmotaAdapter } from './tasmota.adapter.js';

// The Tasmota adapter's bounds under hostile input and faults, fed through an in-memory stand-in
// for the bus (the end-to-end behaviour on real brokers is tasmota.adapter.test.ts).

function setup(
  options: { maxDevices?: number; discoveryPerSecond?: number; messagesPerSecond?: number } = {},
) {
  const { log, lines } = capturedLog();
  const bus = new InMemoryBus();
  const listed = new Map<string, DeviceDescription>();
  const states: { id: string; state: Record<string, unknown> }[] = [];
  const events: AdapterEvents = {
    devicesListed: (devices) => {
      for (const device of devices) listed.set(device.external_id, device);
    },
    deviceRemoved: (id) => listed.delete(id),
    stateReported: (id, state) => states.push({ id, state }),
    availabilityChanged: () => {},
  };
  const adapter = new TasmotaAdapter({
    bus,
    prefix: 'tasmota/discovery',
    log,
    settleMs: 60_000,
    listDelayMs: 20,
    ...options,
  });
  const announce = (mac: string, overrides = {}) =>
    bus.deliver(
      `tasmota/discovery/${mac}/config`,
      JSON.stringify(discoveryConfig({ mac, t: `dev_${mac}`, ...overrides })),
      true,
    );
  const warnings = (msg: string) => lines.filter((l) => l.msg === msg);
  return { adapter, bus, events, listed, states, announce, warnings, lines };
}

const mac = (i: number) => `A4CF12${i.toString(16).toUpperCase().padStart(6, '0')}`;

describe('Tasmota bounds and faults', () => {
  it('reads a burst of 10 000 configs in slices: the event loop stays free, every device is listed', async () => {
    const { adapter, events, announce, listed } = setup({ discoveryPerSecond: 20_000 });
    await adapter.start(events);
    const loop = watchLoopHold();
    try {
      for (let i = 0; i < 10_000; i++) announce(mac(i));
      loop.reset();
      await waitFor(() => listed.size === 10_000 || undefined, 90_000);
    } finally {
      loop.stop();
      await adapter.stop();
    }
    expect(loop.worst()).toBeLessThan(250);
  }, 120_000);

  it('refuses a 256 KB config, malformed JSON and devices past its bound, each with one warning naming the topic and reason', async () => {
    const { adapter, bus, events, announce, listed, warnings } = setup({ maxDevices: 2 });
    await adapter.start(events);
    try {
      bus.deliver(
        `tasmota/discovery/${mac(1)}/config`,
        JSON.stringify({ ...discoveryConfig({ mac: mac(1) }), pad: 'x'.repeat(256 * 1024) }),
      );
      bus.deliver(`tasmota/discovery/${mac(2)}/config`, '{"dn": "Broken"');
      bus.deliver(`tasmota/discovery/${mac(2)}/config`, '{"dn": "Broken"');
      for (let i = 3; i <= 5; i++) announce(mac(i));
      await waitFor(() => warnings('tasmota discovery message refused').length === 3 || undefined);
      expect(warnings('tasmota discovery message refused').map((l) => [l.topic, l.reason])).toEqual([
        [`tasmota/discovery/${mac(1)}/config`, 'larger than 65536 bytes'],
        [`tasmota/discovery/${mac(2)}/config`, 'not JSON'],
        [`tasmota/discovery/${mac(5)}/config`, 'more than 2 devices'],
      ]);
      await waitFor(() => listed.size === 2 || undefined);
      expect(adapter.rejected().map((r) => r.topic)).toEqual([
        `tasmota/discovery/${mac(5)}/config`,
        `tasmota/discovery/${mac(2)}/config`,
        `tasmota/discovery/${mac(1)}/config`,
      ]);
    } finally {
      await adapter.stop();
    }
  });

  it('skips malformed and oversized state with one warning each, and the device carries on', async () => {
    const { adapter, bus, events, announce, listed, states, warnings } = setup();
    await adapter.start(events);
    try {
      announce(mac(1));
      await waitFor(() => listed.size === 1 || undefined);
      const topic = `tele/dev_${mac(1)}/STATE`;
      for (let i = 0; i < 3; i++) bus.deliver(topic, '{"POWER": "ON"');
      bus.deliver(topic, JSON.stringify({ POWER: 'ON', pad: 'x'.repeat(300 * 1024) }));
      bus.deliver(topic, JSON.stringify({ POWER: 'ON' }));
      expect(warnings('tasmota message is not the JSON expected; skipped')).toHaveLength(1);
      expect(warnings('tasmota state payload too large; skipped')).toHaveLength(1);
      expect(states.at(-1)?.state).toEqual({ state: true });
    } finally {
      await adapter.stop();
    }
  });

  it("reads a flooding device's messages at most 20 a second, the newest of each topic at the end of it, with one warning", async () => {
    const { adapter, bus, events, announce, listed, states, warnings } = setup();
    await adapter.start(events);
    try {
      announce(mac(1), { rl: relays(2), lt_st: 1 });
      await waitFor(() => listed.size === 1 || undefined);
      const topic = `stat/dev_${mac(1)}/RESULT`;
      for (let i = 1; i <= 10_000; i++) {
        bus.deliver(topic, JSON.stringify({ POWER: 'ON', Dimmer: i % 100 }));
        // Topics Hearth does not read are not even held.
        bus.deliver(`tele/dev_${mac(1)}/X${i}`, '{}');
      }
      expect(adapter.counts().held).toBe(1);
      expect(
        warnings(
          'tasmota device sends more messages than Hearth reads; the newest of each topic is read each second',
        ),
      ).toHaveLength(1);
      expect(states.length).toBeLessThanOrEqual(20);
      // The last one, held back, arrives when the second is over.
      await waitFor(
        () =>
          (states.at(-1)?.state.light as { brightness?: number } | undefined)?.brightness === 0 || undefined,
        3000,
      );
      expect(states.length).toBeLessThanOrEqual(21);
    } finally {
      await adapter.stop();
    }
  });

  it('takes the same retained config again without listing it again, and the sensors before the config', async () => {
    const { adapter, bus, events, announce, listed } = setup();
    let lists = 0;
    await adapter.start({
      ...events,
      devicesListed: (devices, complete) => {
        lists++;
        events.devicesListed(devices, complete);
      },
    });
    try {
      bus.deliver(
        `tasmota/discovery/${mac(1)}/sensors`,
        JSON.stringify(sensorsMessage({ BH1750: { Illuminance: 310 } })),
        true,
      );
      announce(mac(1));
      await waitFor(
        () => listed.get(mac(1))?.capabilities.some((c) => c.property === 'bh1750_illuminance') || undefined,
      );
      const before = lists;
      for (let i = 0; i < 3; i++) announce(mac(1));
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(lists).toBe(before);
      expect(bus.subscriptions().filter((f) => f.startsWith('tele/'))).toEqual([`tele/dev_${mac(1)}/+`]);
    } finally {
      await adapter.stop();
    }
  });

  it('forgets a retained config (and its sensors) by clearing them, and only a discovery topic under its prefix', async () => {
    const { adapter, bus, events } = setup();
    await adapter.start(events);
    try {
      expect(await adapter.forget(`tasmota/discovery/${mac(9)}/config`)).toBe(true);
      expect(await adapter.forget('tasmota/discovery/+/config')).toBe(false);
      expect(await adapter.forget('elsewhere/A4CF12000009/config')).toBe(false);
      expect(bus.published).toEqual([
        { topic: `tasmota/discovery/${mac(9)}/config`, payload: '', retain: true },
        { topic: `tasmota/discovery/${mac(9)}/sensors`, payload: '', retain: true },
      ]);
    } finally {
      await adapter.stop();
    }
  });

  it('turns a push-on switch (mode 13) off a second after it turned on', async () => {
    const { adapter, bus, events, announce, listed, states } = setup();
    await adapter.start(events);
    try {
      announce(mac(1), { rl: relays(), swc: [13] });
      await waitFor(() => listed.size === 1 || undefined);
      bus.deliver(`stat/dev_${mac(1)}/RESULT`, JSON.stringify({ Switch1: { Action: 'ON' } }));
      expect(states.at(-1)?.state).toEqual({ switch: true });
      await waitFor(() => states.at(-1)?.state.switch === false || undefined, 3000);
    } finally {
      await adapter.stop();
    }
  });

  it('answers a command with 503 while the bus is down, sending nothing', async () => {
    const { adapter, bus, events, announce, listed } = setup();
    await adapter.start(events);
    try {
      announce(mac(1));
      await waitFor(() => listed.size === 1 || undefined);
      bus.connected = false;
      const device = { external_id: mac(1) } as never;
      await expect(adapter.command(device, { state: { on: true } })).rejects.toMatchObject({
        statusCode: 503,
      });
      expect(bus.published.filter((p) => p.topic.startsWith('cmnd/'))).toEqual([]);
    } finally {
      await adapter.stop();
    }
  });
});

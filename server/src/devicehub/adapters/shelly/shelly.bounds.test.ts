import type { Device } from '@hearth/contracts';
import { describe, expect, it } from 'vitest';
import { waitFor } from '../../../../test/wait.js';
import type { AdapterEvents, DeviceDescription } from '../adapter.js';
import { capturedLog, InMemoryBus } from '../tasmota/fixtures/in-memory-bus.js';
import { deviceInfo, notification, plus1pm } from './fixtures/shelly-devices.js';
import { RpcBusy, ShellyRpc } from './rpc.js';
import { ShellyAdapter } from './shelly.adapter.js';

// The Shelly adapter's bounds under hostile input and faults, fed through an in-memory stand-in
// for the bus (the end-to-end behaviour on real brokers is shelly.adapter.test.ts). A device here
// is a responder on the same stand-in: it answers `<prefix>/rpc` on `<src>/rpc`.

const SRC = 'hearth-shelly-test';

function setup(
  options: { maxDevices?: number; rpcTimeoutMs?: number; stored?: Device[]; settleMs?: number } = {},
) {
  const { log, lines } = capturedLog();
  const bus = new InMemoryBus();
  const listed = new Map<string, DeviceDescription>();
  const lists: { ids: string[]; complete: boolean }[] = [];
  const states: { id: string; state: Record<string, unknown> }[] = [];
  const events: AdapterEvents = {
    devicesListed: (devices, complete = true) => {
      lists.push({ ids: devices.map((d) => d.external_id), complete });
      for (const device of devices) listed.set(device.external_id, device);
    },
    deviceRemoved: (id) => listed.delete(id),
    stateReported: (id, state) => states.push({ id, state }),
    availabilityChanged: () => {},
  };
  const adapter = new ShellyAdapter({
    bus,
    log,
    prefixes: ['+'],
    src: SRC,
    settleMs: options.settleMs ?? 60_000,
    listDelayMs: 20,
    rpcTimeoutMs: options.rpcTimeoutMs ?? 200,
    ...(options.maxDevices ? { maxDevices: options.maxDevices } : {}),
    ...(options.stored ? { storedDevices: async () => options.stored ?? [] } : {}),
  });
  /** A device that answers Shelly.GetDeviceInfo and Shelly.GetStatus (and nothing else: -114). */
  const device = async (prefix: string, status: Record<string, unknown> = plus1pm()) => {
    await bus.subscribe(`${prefix}/rpc`, (_topic, payload) => {
      const request = JSON.parse(payload.toString());
      const result =
        request.method === 'Shelly.GetDeviceInfo'
          ? deviceInfo(prefix, 'Plus1PM')
          : request.method === 'Shelly.GetStatus'
            ? status
            : undefined;
      const body = result ? { result } : { error: { code: -114, message: 'Method not found!' } };
      void bus.publish(`${request.src}/rpc`, JSON.stringify({ id: request.id, src: prefix, ...body }));
    });
    bus.deliver(`${prefix}/online`, 'true', true);
  };
  const warnings = (msg: string) => lines.filter((l) => l.msg === msg);
  return { adapter, bus, events, listed, lists, states, device, warnings };
}

describe('Shelly bounds and faults', () => {
  it('asks at most 8 unknown prefixes at once, makes room among those that never answered, and still finds a real device', async () => {
    const { adapter, bus, events, listed, device } = setup({ maxDevices: 100, rpcTimeoutMs: 50 });
    await adapter.start(events);
    try {
      let most = 0;
      const watch = setInterval(() => {
        most = Math.max(most, adapter.counts().asking);
      }, 1);
      for (let i = 0; i < 1000; i++) bus.deliver(`thing${i}/online`, 'true', true);
      await device('shellyplus1pm-c0ffee000001');
      await waitFor(() => listed.has('shellyplus1pm-c0ffee000001') || undefined, 20_000);
      clearInterval(watch);
      const rpc = bus.published.filter((p) => p.topic.endsWith('/rpc') && !p.topic.startsWith(SRC));
      // Never more than 8 asked at once; those that never answered made room (100 kept at most).
      expect(most).toBeLessThanOrEqual(8);
      expect(rpc.filter((p) => p.topic.startsWith('thing')).length).toBeLessThanOrEqual(120);
      expect(adapter.counts().waiting).toBeLessThanOrEqual(100);
      expect(adapter.counts().devices).toBe(1);
    } finally {
      await adapter.stop();
    }
  }, 30_000);

  it('asks a device whose retained online comes while its subscriptions are being made', async () => {
    const { adapter, bus, events, listed, device } = setup();
    await device('early');
    expect(bus.published).toEqual([]);
    await adapter.start(events);
    try {
      await waitFor(() => listed.has('early') || undefined);
    } finally {
      await adapter.stop();
    }
  });

  it("reports a flooding device's changes at most 20 times a second, its last one at the end of the second, with one warning", async () => {
    const { adapter, bus, events, listed, states, device, warnings } = setup();
    await adapter.start(events);
    try {
      await device('plug');
      await waitFor(() => listed.has('plug') || undefined);
      const before = states.length;
      for (let i = 1; i <= 10_000; i++)
        bus.deliver(
          'plug/events/rpc',
          JSON.stringify(notification('plug', 'NotifyStatus', { 'switch:0': { id: 0, apower: i } })),
        );
      expect(states.length - before).toBeLessThanOrEqual(20);
      expect(
        warnings(
          'shelly device sends more changes than Hearth reports; they are reported together each second',
        ),
      ).toHaveLength(1);
      await waitFor(() => states.at(-1)?.state.power === 10_000 || undefined, 3000);
      expect(states.length - before).toBeLessThanOrEqual(21);
    } finally {
      await adapter.stop();
    }
  });

  it("skips a known device's malformed frames and oversized payloads with one warning each, and carries on", async () => {
    const { adapter, bus, events, listed, states, device, warnings } = setup();
    await adapter.start(events);
    try {
      await device('plug');
      await waitFor(() => listed.has('plug') || undefined);
      for (let i = 0; i < 3; i++) bus.deliver('plug/events/rpc', '{"method": "NotifyStatus"');
      bus.deliver('plug/events/rpc', 'x'.repeat(300 * 1024));
      bus.deliver('other/events/rpc', 'not a frame');
      bus.deliver(
        'plug/events/rpc',
        JSON.stringify(notification('plug', 'NotifyStatus', { 'switch:0': { id: 0, output: true } })),
      );
      expect(warnings('shelly message refused').map((l) => [l.topic, l.reason])).toEqual([
        ['plug/events/rpc', 'not a Shelly notification'],
      ]);
      expect(warnings('shelly payload too large; skipped')).toHaveLength(1);
      expect(states.at(-1)?.state).toEqual({ state: true });
    } finally {
      await adapter.stop();
    }
  });

  it('fails a command whose reply never comes (504), and one the device refuses (502)', async () => {
    const { adapter, events, listed, device } = setup({ rpcTimeoutMs: 100 });
    await adapter.start(events);
    try {
      // This device answers only GetDeviceInfo and GetStatus: Switch.Set gets -114.
      await device('plug');
      await waitFor(() => listed.has('plug') || undefined);
      const known = { external_id: 'plug' } as never;
      await expect(adapter.command(known, { state: { on: true } })).rejects.toMatchObject({
        statusCode: 502,
        message: 'The device refused the command: Method not found! (-114)',
      });
      // A device that never answers.
      const {
        adapter: silent,
        bus: quiet,
        events: silentEvents,
        listed: silentListed,
      } = setup({ rpcTimeoutMs: 100 });
      await silent.start(silentEvents);
      try {
        quiet.deliver(
          'quiet/events/rpc',
          JSON.stringify(notification('quiet', 'NotifyFullStatus', plus1pm())),
        );
        await waitFor(() => silentListed.has('quiet') || undefined, 3000);
        await expect(
          silent.command({ external_id: 'quiet' } as never, { state: { on: true } }),
        ).rejects.toMatchObject({
          statusCode: 504,
          message: 'The device did not answer the command in time',
        });
      } finally {
        await silent.stop();
      }
    } finally {
      await adapter.stop();
    }
  });

  it('refuses a request when too many wait for their replies', async () => {
    const { log } = capturedLog();
    const rpc = new ShellyRpc(new InMemoryBus(), SRC, log, 1000, 2);
    await rpc.start();
    const waiting = [rpc.call('a', 'Shelly.GetStatus'), rpc.call('b', 'Shelly.GetStatus')];
    for (const each of waiting) each.catch(() => {});
    await expect(rpc.call('c', 'Shelly.GetStatus')).rejects.toBeInstanceOf(RpcBusy);
    rpc.stop();
  });

  it('keeps a device the broker knows but that did not answer in the complete list, with its stored description; one the broker forgot leaves', async () => {
    const stored = (id: string, protocol = 'shelly') =>
      ({
        id: `id-${id}`,
        external_id: id,
        name: id,
        protocol,
        manufacturer: 'Shelly',
        model: null,
        type: 'switch',
        description: null,
        firmware: null,
        capabilities: [],
        inputs: [],
      }) as unknown as Device;
    const { adapter, bus, events, lists, device } = setup({
      stored: [stored('asleep'), stored('gone'), stored('zigbee-plug', 'zigbee')],
      settleMs: 300,
      rpcTimeoutMs: 50,
    });
    await adapter.start(events);
    try {
      bus.deliver('asleep/online', 'false', true);
      await device('awake');
      await waitFor(() => lists.find((l) => l.complete) ?? undefined, 5000);
      expect(lists.find((l) => l.complete)?.ids.sort()).toEqual(['asleep', 'awake']);
    } finally {
      await adapter.stop();
    }
  });
});

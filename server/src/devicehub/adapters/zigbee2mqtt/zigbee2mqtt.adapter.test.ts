import fc from 'fast-check';
import pino, { type Logger } from 'pino';
import { describe, expect, it } from 'vitest';
import { LogCapture } from '../../../../test/app.js';
import type { Bus, MessageHandler } from '../../../bus/bus.js';
import { createLogger } from '../../../logging/logger.js';
import type { AdapterEvents, DeviceDescription } from '../adapter.js';
import { parseBridgeDevices } from './bridge-devices.js';
import { mapExposes } from './exposes.js';
import { bridgeDevicesFixture } from './fixtures/scripted-zigbee2mqtt.js';
import { PENDING_LIMITS } from './pending-messages.js';
import { MAX_STATE_PAYLOAD, Zigbee2mqttAdapter } from './zigbee2mqtt.adapter.js';

const BASE = 'zigbee2mqtt';

/** A bus that hands the adapter whatever the test publishes, and records what the adapter sends. */
function fakeBus() {
  let handler: MessageHandler = () => {};
  const sent: { topic: string; payload: string }[] = [];
  const bus: Bus = {
    description: 'fake',
    connected: true,
    status: () => ({ bus: 'online', since: new Date(0).toISOString() }),
    onStatus: () => () => {},
    publish: async (topic, payload) => {
      sent.push({ topic, payload: payload.toString() });
    },
    subscribe: async (_filter, h) => {
      handler = h;
      return () => {};
    },
    close: async () => {},
  };
  const deliver = (suffix: string, payload: string | Buffer, retained = false) =>
    handler(`${BASE}/${suffix}`, Buffer.isBuffer(payload) ? payload : Buffer.from(payload), retained);
  return { bus, sent, deliver };
}

function recorder() {
  const lists: DeviceDescription[][] = [];
  const states: { id: string; state: Record<string, unknown>; lastSeen: string | null }[] = [];
  const availability: [string, boolean][] = [];
  const removed: string[] = [];
  const events: AdapterEvents = {
    devicesListed: (devices) => lists.push(devices),
    deviceRemoved: (id) => removed.push(id),
    stateReported: (id, state, lastSeen) => states.push({ id, state, lastSeen }),
    availabilityChanged: (id, online) => availability.push([id, online]),
  };
  return { events, lists, states, availability, removed };
}

async function startAdapter(renameTimeoutMs = 200, listed = true, log: Logger = pino({ level: 'silent' })) {
  const { bus, sent, deliver } = fakeBus();
  const adapter = new Zigbee2mqttAdapter({ bus, baseTopic: BASE, log, renameTimeoutMs });
  const record = recorder();
  await adapter.start(record.events);
  if (listed) deliver('bridge/devices', JSON.stringify(bridgeDevicesFixture()), true);
  return { adapter, sent, deliver, ...record };
}

const LAMP = '0x0017880104e45517';

describe('Zigbee2MQTT adapter', () => {
  it('reads state with last_seen in ISO or epoch form, or the arrival time', async () => {
    const { deliver, states } = await startAdapter();
    deliver('Living room/Lamp', '{"state":"ON","last_seen":"2026-01-02T03:04:05+01:00"}');
    deliver('Living room/Lamp', '{"state":"OFF","last_seen":1767225600000}');
    deliver('Living room/Lamp', '{"state":"ON"}');
    deliver('Living room/Lamp', '{"state":"ON"}', true);
    expect(states.map((s) => s.lastSeen?.slice(0, 19) ?? null)).toEqual([
      '2026-01-02T02:04:05',
      '2026-01-01T00:00:00',
      new Date().toISOString().slice(0, 19),
      null,
    ]);
  });

  it('understands JSON and legacy availability, and ignores groups, /set echoes and unknown names', async () => {
    const { deliver, availability, states } = await startAdapter();
    deliver('Living room/Lamp/availability', '{"state":"offline"}');
    deliver('Living room/Lamp/availability', 'online');
    deliver('Living room/Lamp/set', '{"state":"ON"}');
    deliver('Some group', '{"state":"ON"}');
    expect(availability).toEqual([
      [LAMP, false],
      [LAMP, true],
    ]);
    expect(states).toEqual([]);
  });

  it('matches a rename response without a transaction (older Zigbee2MQTT) and reports refusals', async () => {
    const { adapter, deliver, lists, sent } = await startAdapter();
    const lamp = { ...lists[0]!.find((d) => d.external_id === LAMP)!, id: 'x' } as never;
    const renaming = adapter.rename(lamp, 'Desk lamp');
    await Promise.resolve();
    expect(JSON.parse(sent.at(-1)!.payload)).toMatchObject({
      from: 'Living room/Lamp',
      to: 'Desk lamp',
      homeassistant_rename: false,
    });
    deliver(
      'bridge/response/device/rename',
      JSON.stringify({ data: { from: 'Living room/Lamp', to: 'Desk lamp' }, status: 'ok' }),
    );
    await expect(renaming).resolves.toBe('Desk lamp');

    const refused = adapter.rename(lamp, 'Front door');
    await Promise.resolve();
    const { transaction } = JSON.parse(sent.at(-1)!.payload);
    deliver(
      'bridge/response/device/rename',
      JSON.stringify({
        data: {},
        status: 'error',
        error: "friendly_name 'Front door' is already in use",
        transaction,
      }),
    );
    await expect(refused).rejects.toMatchObject({
      statusCode: 400,
      message: "friendly_name 'Front door' is already in use",
    });
    await expect(adapter.rename(lamp, 'Quiet')).rejects.toMatchObject({ statusCode: 504 });
    await expect(adapter.rename(lamp, 'bad/#/name')).rejects.toMatchObject({ statusCode: 400 });
  });

  it('survives random payloads on every topic and keeps serving its devices (property-based)', async () => {
    const { deliver, states, lists } = await startAdapter();
    const topics = fc.constantFrom(
      'bridge/devices',
      'bridge/event',
      'bridge/response/device/rename',
      'Living room/Lamp',
      'Living room/Lamp/availability',
      'Front door',
      'Front door/set',
      'unknown/thing',
    );
    const payloads = fc.oneof(
      fc.json().map((json) => Buffer.from(json)),
      fc.string().map((text) => Buffer.from(text)),
      fc.uint8Array({ maxLength: 200 }).map((bytes) => Buffer.from(bytes)),
      fc.anything().map((value) => Buffer.from(JSON.stringify(value) ?? 'undefined')),
      fc.array(fc.anything()).map((value) => Buffer.from(JSON.stringify(value) ?? '[]')),
    );
    fc.assert(
      fc.property(topics, payloads, fc.boolean(), (topic, payload, retained) => {
        expect(() => deliver(topic, payload, retained)).not.toThrow();
      }),
      { numRuns: 2000 },
    );
    // Whatever happened, a valid list and a valid state still work.
    deliver('bridge/devices', JSON.stringify(bridgeDevicesFixture()), true);
    states.length = 0;
    deliver('Living room/Lamp', '{"state":"ON"}');
    expect(lists.at(-1)).toHaveLength(4);
    expect(states).toEqual([expect.objectContaining({ id: LAMP, state: { state: 'ON' } })]);
  });

  it('maps any device list and any exposes without throwing (property-based)', () => {
    fc.assert(
      fc.property(fc.anything(), (value) => {
        parseBridgeDevices(value);
        parseBridgeDevices([
          value,
          { ieee_address: '0x1', friendly_name: 'x', definition: { exposes: value } },
        ]);
        mapExposes(value);
        mapExposes([value, { type: 'light', features: value }]);
      }),
      { numRuns: 2000 },
    );
  });
});

describe('messages before the device list names the device', () => {
  const DOOR = '0x00158d0001e5a1b2';

  it('reports the newest availability and state of a name once the list names it', async () => {
    const { deliver, availability, states, lists } = await startAdapter(200, false);
    deliver('Front door/availability', '{"state":"offline"}', true);
    deliver('Front door/availability', 'online', true);
    deliver('Front door', '{"contact":false,"battery":80}', true);
    const before = Date.now();
    deliver('Front door', '{"contact":true,"battery":79}');
    const after = Date.now();
    deliver('Living room/Lamp', '{"state":"ON","last_seen":"2026-01-02T03:04:05.000Z"}', true);
    deliver('Living room/Lamp/set', '{"state":"OFF"}');
    expect([availability, states]).toEqual([[], []]);
    deliver('bridge/devices', JSON.stringify(bridgeDevicesFixture()), true);
    expect(lists).toHaveLength(1);
    expect(availability).toEqual([[DOOR, true]]);
    // In list order; the fresh door state keeps the time it arrived as its last_seen.
    expect(states).toEqual([
      {
        id: LAMP,
        state: { state: 'ON', last_seen: '2026-01-02T03:04:05.000Z' },
        lastSeen: '2026-01-02T03:04:05.000Z',
      },
      { id: DOOR, state: { contact: true, battery: 79 }, lastSeen: expect.any(String) },
    ]);
    const doorSeen = Date.parse(states[1]!.lastSeen!);
    expect(doorSeen >= before && doorSeen <= after).toBe(true);
    // Reported once: a second list does not repeat them.
    deliver('bridge/devices', JSON.stringify(bridgeDevicesFixture()), true);
    expect([availability.length, states.length]).toEqual([1, 2]);
  });

  it('forgets a topic cleared with an empty retained message, and skips payloads over the cap', async () => {
    const { deliver, availability, states } = await startAdapter(200, false);
    deliver('Front door/availability', 'online', true);
    deliver('Front door/availability', '', true);
    deliver('Living room/Lamp', Buffer.alloc(MAX_STATE_PAYLOAD + 1, 0x20), true);
    deliver('bridge/devices', JSON.stringify(bridgeDevicesFixture()), true);
    expect([availability, states]).toEqual([[], []]);
  });

  it(`keeps at most ${PENDING_LIMITS.names} names, forgetting the oldest first`, async () => {
    const { deliver, availability } = await startAdapter(200, false);
    deliver('Front door/availability', 'online', true);
    for (let i = 0; i < PENDING_LIMITS.names - 1; i++) deliver(`group ${i}/availability`, 'online', true);
    deliver('Stairs switch/availability', 'online', true);
    deliver('bridge/devices', JSON.stringify(bridgeDevicesFixture()), true);
    expect(availability).toEqual([['0xa4c1384e2f7a9b10', true]]);
  });

  it('applies messages under the new name that arrive before the rename answer', async () => {
    const { adapter, deliver, lists, sent, availability, states } = await startAdapter();
    const lamp = { ...lists[0]!.find((d) => d.external_id === LAMP)!, id: 'x' } as never;
    const renaming = adapter.rename(lamp, 'Desk lamp');
    await Promise.resolve();
    const { transaction } = JSON.parse(sent.at(-1)!.payload);
    deliver('Desk lamp/availability', '{"state":"online"}', true);
    deliver('Desk lamp', '{"state":"OFF"}', true);
    expect([availability, states]).toEqual([[], []]);
    deliver(
      'bridge/response/device/rename',
      JSON.stringify({ data: { from: 'Living room/Lamp', to: 'Desk lamp' }, status: 'ok', transaction }),
    );
    await expect(renaming).resolves.toBe('Desk lamp');
    expect(availability).toEqual([[LAMP, true]]);
    expect(states).toEqual([{ id: LAMP, state: { state: 'OFF' }, lastSeen: null }]);
    deliver('Living room/Lamp', '{"state":"ON"}');
    deliver('Desk lamp', '{"brightness":3}');
    expect(states.at(-1)).toMatchObject({ id: LAMP, state: { brightness: 3 } });
  });
});

describe('bridge/devices', () => {
  it('leaves out the coordinator, interviewing devices, duplicate names and unknown expose types', () => {
    const list = bridgeDevicesFixture();
    list.push({ ...list[1]!, ieee_address: '0xdeadbeef00000001' });
    const { devices, problems } = parseBridgeDevices(list);
    expect(devices.map((d) => d.friendly_name)).toEqual([
      'Living room/Lamp',
      'Front door',
      'Stairs switch',
      'Kitchen remote',
    ]);
    expect(problems).toEqual([
      'Kitchen remote: exposes skipped: hologram aura',
      'friendly_name "Living room/Lamp" of 0xdeadbeef00000001 is a duplicate or unusable in a topic: skipped',
    ]);
    expect(devices.find((d) => d.friendly_name === 'Kitchen remote')).toMatchObject({
      type: 'remote',
      manufacturer: 'IKEA',
      firmware: '2.3.014',
    });
  });
});

describe('Zigbee2MQTT adapter and bad input', () => {
  const withLogs = async () => {
    const logs = new LogCapture();
    const started = await startAdapter(200, true, createLogger('info', logs));
    logs.lines.length = 0; // what the fixture list itself says (its own skipped exposes)
    const warnings = () => logs.lines.map((line) => JSON.parse(line)).filter((l) => l.level === 40);
    return { ...started, warnings };
  };

  it("takes the empty payload that clears a renamed device's old availability topic silently", async () => {
    const { deliver, availability, warnings } = await withLogs();
    deliver('Living room/Lamp/availability', '', true);
    expect(availability).toEqual([]);
    expect(warnings()).toEqual([]);
  });

  it('ignores a list in which every entry is refused, with one warning', async () => {
    const { deliver, lists, warnings } = await withLogs();
    const garbage = Array.from({ length: 5000 }, (_, i) => (i % 2 ? { ieee_address: `0x${i}` } : i));
    deliver('bridge/devices', JSON.stringify(garbage), true);
    expect(lists).toHaveLength(1);
    expect(warnings().map((w) => [w.msg, w.entries, w.first.length])).toEqual([
      ['bridge/devices has no usable entry; ignored, the registry is unchanged', 5000, 10],
    ]);
  });

  it("keeps only the state keys the exposes name and Zigbee2MQTT's own", async () => {
    const { deliver, states, warnings } = await withLogs();
    deliver(
      'Living room/Lamp',
      JSON.stringify({
        state: 'ON',
        color: { x: 0.3, y: 0.3, hex: '#ffffff' },
        color_mode: 'xy',
        linkquality: 90,
        update: { state: 'idle' },
        blob: 'x'.repeat(1000),
        injected: true,
      }),
    );
    deliver('Living room/Lamp', JSON.stringify({ blob: 'again' }));
    expect(states.map((s) => s.state)).toEqual([
      {
        state: 'ON',
        color: { x: 0.3, y: 0.3, hex: '#ffffff' },
        color_mode: 'xy',
        linkquality: 90,
        update: { state: 'idle' },
      },
      {},
    ]);
    expect(warnings().map((w) => [w.msg, w.keys])).toEqual([
      ['zigbee2mqtt state keys not in the exposes; dropped', ['blob', 'injected']],
    ]);
  });
});

import pino from 'pino';
import { describe, expect, it } from 'vitest';
import type { DeviceAdapter, DeviceDescription } from './adapters/adapter.js';
import { type DevicesRepository, toDevice } from './devicehub.repository.js';
import { DeviceHubService } from './devicehub.service.js';
import type { EdgeBroker } from './edge/edge-broker.js';
import type { StateWriter } from './state-writer.js';

const description: DeviceDescription = {
  external_id: '0x01',
  name: 'Hall sensor',
  protocol: 'zigbee',
  manufacturer: 'Aqara',
  model: 'WSDCGQ11LM',
  type: 'sensor',
  description: null,
  firmware: null,
  capabilities: [],
  inputs: [],
};

function service(failures: number) {
  let left = failures;
  const repository = {
    all: async () => [],
    applyChanges: async ({ upsert }: { upsert: DeviceDescription[] }, now: string) => {
      if (left-- > 0) throw new Error('database away');
      return upsert.map((d) =>
        toDevice({
          id: `id-${d.external_id}`,
          external_id: d.external_id,
          protocol: d.protocol,
          name: d.name,
          metadata: '{}',
          state: '{}',
          last_seen: null,
          created_at: now,
          updated_at: now,
          removed_at: null,
        }),
      );
    },
  } as unknown as DevicesRepository;
  const published: string[] = [];
  const edge = { publish: async (topic: string) => void published.push(topic) } as unknown as EdgeBroker;
  const writer = { mark: () => {}, forget: () => {} } as unknown as StateWriter;
  const adapter = { protocol: 'zigbee' } as DeviceAdapter;
  const hub = new DeviceHubService({
    repository,
    adapters: [adapter],
    edge,
    writer,
    log: pino({ level: 'silent' }),
  });
  return { hub, published };
}

describe('device hub service', () => {
  it('applies the newest device list again when the registry was away', async () => {
    const { hub, published } = service(1);
    hub.events('zigbee').devicesListed([description]);
    await hub.settled();
    expect(hub.list()).toEqual([]);
    await new Promise((r) => setTimeout(r, 2300));
    await hub.settled();
    expect(hub.list().map((d) => d.name)).toEqual(['Hall sensor']);
    expect(published).toContain('events/device.upsert');
    hub.stop();
  });

  it('keeps state that arrives before the registry has the device, and applies it after', async () => {
    const { hub } = service(0);
    hub.events('zigbee').devicesListed([description]);
    hub.events('zigbee').stateReported('0x01', { temperature: 21.5 }, '2026-01-01T00:00:00.000Z', false);
    await hub.settled();
    expect(hub.list()[0]).toMatchObject({
      state: { temperature: 21.5 },
      online: true,
      last_seen: '2026-01-01T00:00:00.000Z',
    });
  });
});

describe('device hub service with several sources', () => {
  /** An adapter of `protocol` that records what the hub routes to it (an in-memory fake). */
  const fakeAdapter = (protocol: string) => {
    const calls: string[] = [];
    const adapter = {
      protocol,
      command: async (device: { name: string }) => void calls.push(`command ${device.name}`),
      rename: async (device: { name: string }, name: string) => {
        calls.push(`rename ${device.name}`);
        return name;
      },
      requestState: async (device: { name: string }) => {
        calls.push(`requestState ${device.name}`);
        return true;
      },
    } as unknown as DeviceAdapter;
    return { adapter, calls };
  };
  const described = (protocol: string, externalId: string, name: string): DeviceDescription => ({
    ...description,
    protocol,
    external_id: externalId,
    name,
  });

  function twoSources(maxDevices?: number) {
    const removed: string[] = [];
    const repository = {
      all: async () => [],
      applyChanges: async (
        { upsert, remove }: { upsert: DeviceDescription[]; remove: string[] },
        now: string,
      ) => {
        removed.push(...remove);
        return upsert.map((d) =>
          toDevice({
            id: `id-${d.external_id}`,
            external_id: d.external_id,
            protocol: d.protocol,
            name: d.name,
            metadata: '{}',
            state: '{}',
            last_seen: null,
            created_at: now,
            updated_at: now,
            removed_at: null,
          }),
        );
      },
      rename: async () => ({ suggested_room: null }),
    } as unknown as DevicesRepository;
    const edge = { publish: async () => {} } as unknown as EdgeBroker;
    const writer = { mark: () => {}, forget: () => {} } as unknown as StateWriter;
    const zigbee = fakeAdapter('zigbee');
    const ha = fakeAdapter('homeassistant');
    const hub = new DeviceHubService({
      repository,
      adapters: [zigbee.adapter, ha.adapter],
      edge,
      writer,
      log: pino({ level: 'silent' }),
      ...(maxDevices ? { maxDevices } : {}),
    });
    return { hub, zigbee, ha, removed };
  }
  const names = (hub: DeviceHubService) =>
    hub
      .list()
      .map((d) => `${d.protocol}:${d.name}`)
      .sort();

  it("keeps each source's list to its own devices, and routes commands, renames and state requests by protocol", async () => {
    const { hub, zigbee, ha } = twoSources();
    hub.events('zigbee').devicesListed([described('zigbee', '0x01', 'Lamp')]);
    hub.events('homeassistant').devicesListed([described('homeassistant', 'esp-1', 'Boiler')]);
    await hub.settled();
    await hub.command('id-esp-1', { state: { on: true } });
    await hub.command('id-0x01', { state: { on: true } });
    await hub.rename('id-esp-1', 'Hall boiler');
    hub.requestState(hub.get('id-0x01'));
    expect(ha.calls).toEqual(['command Boiler', 'rename Boiler']);
    expect(zigbee.calls).toEqual(['command Lamp', 'requestState Lamp']);

    // Zigbee2MQTT's complete list no longer names the lamp: it leaves, the boiler stays.
    hub.events('zigbee').devicesListed([described('zigbee', '0x02', 'Plug')]);
    await hub.settled();
    expect(names(hub)).toEqual(['homeassistant:Hall boiler', 'zigbee:Plug']);
  });

  it("ignores one source's reports about another's devices, and its claim on them", async () => {
    const { hub } = twoSources();
    hub.events('zigbee').devicesListed([described('zigbee', '0x01', 'Lamp')]);
    await hub.settled();
    hub.events('homeassistant').stateReported('0x01', { power: 5 }, null, false);
    hub.events('homeassistant').availabilityChanged('0x01', false);
    hub.events('homeassistant').devicesListed([described('homeassistant', '0x01', 'Lamp twice')]);
    hub.events('homeassistant').deviceRemoved('0x01');
    await hub.settled();
    expect(hub.list()).toEqual([
      expect.objectContaining({ protocol: 'zigbee', name: 'Lamp', state: {}, online: false }),
    ]);
  });

  it('keeps every report that arrives before the registry has the device (a source may report one part at a time)', async () => {
    const { hub } = twoSources();
    const events = hub.events('homeassistant');
    events.devicesListed([described('homeassistant', 'plug', 'Plug')], false);
    events.stateReported('plug', { relay: true }, null, true);
    events.stateReported('plug', { power: 12.5 }, null, true);
    await hub.settled();
    expect(hub.list()[0]?.state).toEqual({ relay: true, power: 12.5 });
  });

  it('a list that is not complete only adds and updates', async () => {
    const { hub, removed } = twoSources();
    const events = hub.events('homeassistant');
    events.devicesListed([described('homeassistant', 'a', 'A'), described('homeassistant', 'b', 'B')]);
    events.devicesListed([described('homeassistant', 'c', 'C')], false);
    await hub.settled();
    expect(names(hub)).toEqual(['homeassistant:A', 'homeassistant:B', 'homeassistant:C']);
    expect(removed).toEqual([]);
  });

  it('counts DEVICEHUB_MAX_DEVICES across sources: a full hub takes no new device from either', async () => {
    const { hub } = twoSources(3);
    hub.events('zigbee').devicesListed([described('zigbee', '1', 'Z1'), described('zigbee', '2', 'Z2')]);
    hub
      .events('homeassistant')
      .devicesListed([described('homeassistant', 'a', 'A'), described('homeassistant', 'b', 'B')]);
    await hub.settled();
    expect(names(hub)).toEqual(['homeassistant:A', 'zigbee:Z1', 'zigbee:Z2']);
    hub
      .events('zigbee')
      .devicesListed([
        described('zigbee', '1', 'Z1'),
        described('zigbee', '2', 'Z2'),
        described('zigbee', '3', 'Z3'),
      ]);
    await hub.settled();
    expect(names(hub)).toEqual(['homeassistant:A', 'zigbee:Z1', 'zigbee:Z2']);
  });
});

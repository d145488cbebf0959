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
  const hub = new DeviceHubService({ repository, adapter, edge, writer, log: pino({ level: 'silent' }) });
  return { hub, published };
}

describe('device hub service', () => {
  it('applies the newest device list again when the registry was away', async () => {
    const { hub, published } = service(1);
    hub.devicesListed([description]);
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
    hub.devicesListed([description]);
    hub.stateReported('0x01', { temperature: 21.5 }, '2026-01-01T00:00:00.000Z', false);
    await hub.settled();
    expect(hub.list()[0]).toMatchObject({
      state: { temperature: 21.5 },
      online: true,
      last_seen: '2026-01-01T00:00:00.000Z',
    });
  });
});

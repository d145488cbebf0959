import { beforeAll, describe, expect, it } from 'vitest';
import { testDatabases, useTestStorage } from '../../test/databases.js';
import type { Storage } from '../storage/database.js';
import type { DeviceDescription } from './adapters/adapter.js';
import { DevicesRepository } from './devicehub.repository.js';

const description = (n: number): DeviceDescription => ({
  external_id: `0x${n.toString(16).padStart(16, '0')}`,
  name: `Sensor ${n}`,
  protocol: 'zigbee',
  manufacturer: 'Aqara',
  model: 'WSDCGQ11LM',
  type: 'sensor',
  description: null,
  firmware: '1.0',
  capabilities: [],
  inputs: [],
});

describe.each(testDatabases())('device registry on $name', ({ create }) => {
  const t = useTestStorage(create);
  let storage: Storage;
  let repository: DevicesRepository;
  beforeAll(() => {
    storage = t.storage;
    repository = new DevicesRepository(storage.db);
  });

  it('keeps the id of a known external id when its metadata changes', async () => {
    const [first] = await repository.applyChanges(
      { upsert: [description(1)], remove: [] },
      '2026-01-01T00:00:00.000Z',
    );
    const [again] = await repository.applyChanges(
      { upsert: [{ ...description(1), name: 'Renamed' }], remove: [] },
      '2026-01-02T00:00:00.000Z',
    );
    expect(again).toMatchObject({
      id: first!.id,
      name: 'Renamed',
      created_at: '2026-01-01T00:00:00.000Z',
      updated_at: '2026-01-02T00:00:00.000Z',
    });
  });

  it('writes the state of many devices in chunks, each device its own', async () => {
    const saved = await repository.applyChanges(
      { upsert: Array.from({ length: 450 }, (_, i) => description(100 + i)), remove: [] },
      '2026-01-01T00:00:00.000Z',
    );
    await repository.saveStates(
      saved.map((device, i) => ({
        id: device.id,
        state: { n: i, text: `it's "quoted" \\ ok` },
        lastSeen: i % 2 ? null : '2026-01-03T00:00:00.000Z',
      })),
    );
    const all = await repository.all();
    for (const [i, device] of saved.entries()) {
      const stored = all.find((d) => d.id === device.id)!;
      expect(stored.state).toEqual({ n: i, text: `it's "quoted" \\ ok` });
      expect(stored.last_seen).toBe(i % 2 ? null : '2026-01-03T00:00:00.000Z');
      expect(stored.online).toBe(false);
    }
  });
});

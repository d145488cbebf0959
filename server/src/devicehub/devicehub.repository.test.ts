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

  it('stores online flags and last seen with the state, and keeps the flag when none is given', async () => {
    const saved = await repository.applyChanges(
      { upsert: Array.from({ length: 30 }, (_, i) => description(700 + i)), remove: [] },
      '2026-01-01T00:00:00.000Z',
    );
    const entry = (i: number, online: boolean | undefined) => ({
      id: saved[i]!.id,
      state: { n: i },
      // Serialised already (as for browsers): stored as given.
      ...(i % 3 === 0 ? { json: JSON.stringify({ n: i, from: 'json' }) } : {}),
      lastSeen: `2026-01-0${1 + (i % 5)}T00:00:00.000Z`,
      ...(online === undefined ? {} : { online }),
    });
    await repository.saveStates(saved.map((_, i) => entry(i, i % 2 === 0)));
    await repository.saveStates(saved.map((_, i) => entry(i, i < 10 ? undefined : i % 2 === 1)));
    const presence = new Map((await repository.presence()).map((row) => [row.id, row]));
    const all = await repository.all();
    for (const [i, device] of saved.entries()) {
      // No flag given: what the first write stored.
      expect(presence.get(device.id)?.online).toBe(i < 10 ? i % 2 === 0 : i % 2 === 1);
      expect(presence.get(device.id)?.last_seen).toBe(`2026-01-0${1 + (i % 5)}T00:00:00.000Z`);
      expect(all.find((d) => d.id === device.id)?.state).toEqual(
        i % 3 === 0 ? { n: i, from: 'json' } : { n: i },
      );
    }
  });
});

import type { Device } from '@hearth/contracts';
import { type Kysely, type Selectable, sql } from 'kysely';
import type { Database } from '../storage/schema.js';
import type { DeviceDescription } from './adapters/adapter.js';
import type { DevicesTable } from './devicehub.tables.js';

/** What the registry keeps of a device besides its columns (the adapter's last description). */
type Metadata = Pick<
  DeviceDescription,
  'manufacturer' | 'model' | 'type' | 'description' | 'firmware' | 'capabilities' | 'inputs'
>;

const parseObject = <T>(json: string, fallback: T): T => {
  try {
    const value = JSON.parse(json);
    return typeof value === 'object' && value !== null ? (value as T) : fallback;
  } catch {
    return fallback;
  }
};

/** A registry row as a device; nobody has said it is online since the start. */
export function toDevice(row: Selectable<DevicesTable>): Device {
  const metadata = parseObject<Partial<Metadata>>(row.metadata, {});
  return {
    id: row.id,
    external_id: row.external_id,
    name: row.name,
    manufacturer: metadata.manufacturer ?? null,
    model: metadata.model ?? null,
    type: metadata.type ?? 'device',
    protocol: row.protocol,
    description: metadata.description ?? null,
    firmware: metadata.firmware ?? null,
    online: false,
    last_seen: row.last_seen,
    created_at: row.created_at,
    updated_at: row.updated_at,
    state: parseObject<Record<string, unknown>>(row.state, {}),
    capabilities: Array.isArray(metadata.capabilities) ? metadata.capabilities : [],
    inputs: Array.isArray(metadata.inputs) ? metadata.inputs : [],
  };
}

const metadataOf = (d: DeviceDescription): string =>
  JSON.stringify({
    manufacturer: d.manufacturer,
    model: d.model,
    type: d.type,
    description: d.description,
    firmware: d.firmware,
    capabilities: d.capabilities,
    inputs: d.inputs,
  } satisfies Metadata);

export interface StateEntry {
  id: string;
  state: Record<string, unknown>;
  lastSeen: string | null;
}

/** The device registry: stable ids, names, metadata and last state (SQL lives here only). */
export class DevicesRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async all(): Promise<Device[]> {
    const rows = await this.db.selectFrom('devicehub_devices').selectAll().execute();
    // Devices of one model share one copy of their capabilities and inputs.
    const shared = new Map<string, Pick<Device, 'capabilities' | 'inputs'>>();
    return rows.map((row) => {
      const device = toDevice(row);
      const key = JSON.stringify([device.capabilities, device.inputs]);
      const model = shared.get(key) ?? { capabilities: device.capabilities, inputs: device.inputs };
      shared.set(key, model);
      return { ...device, ...model };
    });
  }

  /**
   * Inserts new devices and updates the metadata of known ones, many rows per statement and
   * yielding between chunks (a first list of thousands must not stall the event loop). The id of
   * a known external_id never changes: several instances agree on it through the database.
   */
  async upsertMany(devices: DeviceDescription[], now: string, chunkSize = 100): Promise<Device[]> {
    const saved: Device[] = [];
    for (let start = 0; start < devices.length; start += chunkSize) {
      const rows = await this.db
        .insertInto('devicehub_devices')
        .values(
          devices.slice(start, start + chunkSize).map((d) => ({
            id: crypto.randomUUID(),
            external_id: d.external_id,
            protocol: d.protocol,
            name: d.name,
            metadata: metadataOf(d),
            state: '{}',
            last_seen: null,
            created_at: now,
            updated_at: now,
          })),
        )
        .onConflict((oc) =>
          oc.column('external_id').doUpdateSet((eb) => ({
            protocol: eb.ref('excluded.protocol'),
            name: eb.ref('excluded.name'),
            metadata: eb.ref('excluded.metadata'),
            updated_at: eb.ref('excluded.updated_at'),
          })),
        )
        .returningAll()
        .execute();
      saved.push(...rows.map(toDevice));
      if (start + chunkSize < devices.length) await new Promise((resolve) => setImmediate(resolve));
    }
    return saved;
  }

  async rename(id: string, name: string, now: string) {
    await this.db
      .updateTable('devicehub_devices')
      .set({ name, updated_at: now })
      .where('id', '=', id)
      .execute();
  }

  async remove(id: string) {
    await this.db.deleteFrom('devicehub_devices').where('id', '=', id).execute();
  }

  /**
   * Writes many devices' last state (the state writer's periodic flush): one UPDATE per chunk of
   * devices, yielding to the event loop between chunks so that live traffic is not held up.
   */
  async saveStates(entries: StateEntry[], chunkSize = 25) {
    for (let start = 0; start < entries.length; start += chunkSize) {
      const chunk = entries.slice(start, start + chunkSize);
      const cases = (value: (entry: StateEntry) => string | null) =>
        sql.join(
          chunk.map((entry) => sql`when ${entry.id} then ${value(entry)}`),
          sql` `,
        );
      await this.db
        .updateTable('devicehub_devices')
        .set({
          state: sql<string>`case id ${cases((e) => JSON.stringify(e.state))} else state end`,
          last_seen: sql<string | null>`case id ${cases((e) => e.lastSeen)} else last_seen end`,
        })
        .where(
          'id',
          'in',
          chunk.map((entry) => entry.id),
        )
        .execute();
      if (start + chunkSize < entries.length) await new Promise((resolve) => setImmediate(resolve));
    }
  }
}

import type { Device } from '@hearth/contracts';
import type { Kysely, Selectable } from 'kysely';
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
    return rows.map(toDevice);
  }

  /**
   * Inserts new devices and updates the metadata of known ones, in one transaction. The id of a
   * known external_id never changes (several Hearth instances agree on it through the database).
   */
  async upsertMany(devices: DeviceDescription[], now: string): Promise<Device[]> {
    if (devices.length === 0) return [];
    return this.db.transaction().execute(async (trx) => {
      const saved: Device[] = [];
      for (const d of devices) {
        const row = await trx
          .insertInto('devicehub_devices')
          .values({
            id: crypto.randomUUID(),
            external_id: d.external_id,
            protocol: d.protocol,
            name: d.name,
            metadata: metadataOf(d),
            state: '{}',
            last_seen: null,
            created_at: now,
            updated_at: now,
          })
          .onConflict((oc) =>
            oc.column('external_id').doUpdateSet({
              protocol: d.protocol,
              name: d.name,
              metadata: metadataOf(d),
              updated_at: now,
            }),
          )
          .returningAll()
          .executeTakeFirstOrThrow();
        saved.push(toDevice(row));
      }
      return saved;
    });
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

  /** Writes many devices' last state in one transaction (the state writer's periodic flush). */
  async saveStates(entries: StateEntry[]) {
    if (entries.length === 0) return;
    await this.db.transaction().execute(async (trx) => {
      for (const entry of entries) {
        await trx
          .updateTable('devicehub_devices')
          .set({ state: JSON.stringify(entry.state), last_seen: entry.lastSeen })
          .where('id', '=', entry.id)
          .execute();
      }
    });
  }
}

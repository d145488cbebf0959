import { type Device, type RemovedDevice, roomFromDeviceName } from '@hearth/contracts';
import { CompiledQuery, type Kysely, type Selectable, sql } from 'kysely';
import { chunks, storableText, yieldToEventLoop } from '../storage/batches.js';
import type { Database } from '../storage/schema.js';
import type { DeviceDescription } from './adapters/adapter.js';
import type { DevicesTable } from './devicehub.tables.js';

/** What the registry keeps of a device besides its columns (the adapter's last description). */
type Metadata = Pick<
  DeviceDescription,
  | 'manufacturer'
  | 'model'
  | 'type'
  | 'description'
  | 'firmware'
  | 'capabilities'
  | 'inputs'
  | 'suggested_room'
>;

const parseObject = <T>(json: string, fallback: T): T => {
  try {
    const value = JSON.parse(json);
    return typeof value === 'object' && value !== null ? (value as T) : fallback;
  } catch {
    return fallback;
  }
};

type RoomColumns = 'room_id' | 'room_assigned';

/** A registry row with what the state writer keeps of it (null where it has kept nothing yet). */
type DeviceRow = Omit<Selectable<DevicesTable>, RoomColumns> &
  Partial<Pick<Selectable<DevicesTable>, RoomColumns>> & {
    state?: string | null;
    last_seen?: string | null;
  };

/**
 * A registry row as a device; nobody has said it is online since the start (an instance that does
 * not write device state adopts the stored flag, see DeviceHubService.adoptPresence).
 */
export function toDevice(row: DeviceRow): Device {
  const roomId = row.room_id ?? null;
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
    last_seen: row.last_seen ?? null,
    created_at: row.created_at,
    updated_at: row.updated_at,
    state: parseObject<Record<string, unknown>>(row.state ?? '{}', {}),
    capabilities: Array.isArray(metadata.capabilities) ? metadata.capabilities : [],
    inputs: Array.isArray(metadata.inputs) ? metadata.inputs : [],
    room_id: roomId,
    // docs/rooms.md#suggestions: only while unassigned and never assigned.
    // An ecosystem's own suggestion (Home Assistant's suggested_area) before the name's.
    suggested_room:
      roomId === null && !row.room_assigned
        ? (metadata.suggested_room ?? roomFromDeviceName(row.name))
        : null,
  };
}

/**
 * The metadata column of a description: JSON.stringify of {manufacturer, model, type,
 * description, firmware, capabilities, inputs}, with each capabilities and inputs array
 * serialised once per `json` (devices of one model share theirs).
 */
const metadataOf = (d: DeviceDescription, json: (value: object) => string): string => {
  const head = JSON.stringify({
    manufacturer: d.manufacturer,
    model: d.model,
    type: d.type,
    description: d.description,
    firmware: d.firmware,
    ...(d.suggested_room ? { suggested_room: d.suggested_room } : {}),
  } satisfies Omit<Metadata, 'capabilities' | 'inputs'>);
  return `${head.slice(0, -1)},"capabilities":${json(d.capabilities)},"inputs":${json(d.inputs)}}`;
};

/** A row just written from a description: its metadata is the description's, not parsed back. */
const savedDevice = (row: Omit<DeviceRow, 'metadata'>, d: DeviceDescription): Device => ({
  ...toDevice({
    ...row,
    metadata: d.suggested_room ? JSON.stringify({ suggested_room: d.suggested_room }) : '{}',
  }),
  manufacturer: d.manufacturer,
  model: d.model,
  type: d.type,
  description: d.description,
  firmware: d.firmware,
  capabilities: d.capabilities,
  inputs: d.inputs,
});

/** Every column but the metadata, which the writer of a row already has. */
const COLUMNS_BUT_METADATA = [
  'id',
  'external_id',
  'protocol',
  'name',
  'created_at',
  'updated_at',
  'removed_at',
  'room_id',
  'room_assigned',
] as const satisfies readonly Exclude<keyof DevicesTable, 'metadata'>[];

export interface StateEntry {
  id: string;
  state: Record<string, unknown>;
  /** The state as JSON, when it has been serialised already (for browsers). */
  json?: string;
  lastSeen: string | null;
  /** The online flag to store with it (unchanged when absent). */
  online?: boolean;
}

/** What instances that do not write learn from the registry: online and last seen. */
export interface Presence {
  id: string;
  online: boolean;
  last_seen: string | null;
}

/** The device registry: stable ids, names, metadata and last state (SQL lives here only). */
export class DevicesRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** Registry rows with their stored state (the state table's row may not be there yet). */
  private withStates() {
    return this.db
      .selectFrom('devicehub_devices')
      .leftJoin('devicehub_states', 'devicehub_states.device_id', 'devicehub_devices.id')
      .selectAll('devicehub_devices')
      .select(['devicehub_states.state', 'devicehub_states.last_seen', 'devicehub_states.online']);
  }

  /** Every listed device (removed ones stay in the table, out of the hub's way). */
  async all(): Promise<Device[]> {
    const rows = await this.withStates().where('removed_at', 'is', null).execute();
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
   * Applies a device list in ONE transaction: inserts new devices, updates the metadata of known
   * ones (a removed one comes back, with its id), marks the ids in `removed` as removed. Many rows
   * per statement, yielding between chunks (a first list of thousands must not stall the event
   * loop). The id of a known external_id never changes: several instances agree on it through
   * the database.
   */
  async applyChanges(
    changes: { upsert: DeviceDescription[]; remove: string[] },
    now: string,
    chunkSize = 100,
  ): Promise<Device[]> {
    const serialised = new Map<object, string>();
    const json = (value: object) => {
      let text = serialised.get(value);
      if (text === undefined) {
        text = JSON.stringify(value);
        serialised.set(value, text);
      }
      return text;
    };
    return this.db.transaction().execute(async (trx) => {
      const saved: Device[] = [];
      for (const chunk of chunks(changes.upsert, chunkSize)) {
        // What a source lists comes off the bus: PostgreSQL refuses U+0000 in text (issue 32
        // item 3), so the address and name are stored without it. The hub keeps knowing the
        // device by the address its source gave.
        const byExternal = new Map(chunk.map((d) => [storableText(d.external_id), d]));
        const rows = await trx
          .insertInto('devicehub_devices')
          .values(
            chunk.map((d) => ({
              id: crypto.randomUUID(),
              external_id: storableText(d.external_id),
              protocol: storableText(d.protocol),
              name: storableText(d.name),
              metadata: metadataOf(d, json),
              created_at: now,
              updated_at: now,
              removed_at: null,
            })),
          )
          .onConflict((oc) =>
            oc.column('external_id').doUpdateSet((eb) => ({
              protocol: eb.ref('excluded.protocol'),
              name: eb.ref('excluded.name'),
              metadata: eb.ref('excluded.metadata'),
              updated_at: eb.ref('excluded.updated_at'),
              removed_at: null,
            })),
          )
          .returning(COLUMNS_BUT_METADATA)
          .execute();
        // A new device's state row; a known one (updated, or back from removal) keeps its state.
        const ids = rows.map((row) => row.id);
        await trx
          .insertInto('devicehub_states')
          .values(ids.map((id) => ({ device_id: id, last_seen: null })))
          .onConflict((oc) => oc.column('device_id').doNothing())
          .execute();
        const states = new Map(
          (
            await trx
              .selectFrom('devicehub_states')
              .select(['device_id', 'state', 'last_seen'])
              .where('device_id', 'in', ids)
              .execute()
          ).map((row) => [row.device_id, row]),
        );
        for (const row of rows) {
          const description = byExternal.get(row.external_id)!;
          const stored = states.get(row.id);
          saved.push(
            savedDevice(
              {
                ...row,
                external_id: description.external_id,
                state: stored?.state,
                last_seen: stored?.last_seen,
              },
              description,
            ),
          );
        }
        await yieldToEventLoop();
      }
      for (const chunk of chunks(changes.remove, 500)) {
        await trx
          .updateTable('devicehub_devices')
          .set({ removed_at: now })
          .where('id', 'in', chunk)
          .execute();
        await yieldToEventLoop();
      }
      return saved;
    });
  }

  /** Resolves with the room suggestion the new name gives (docs/rooms.md#suggestions). */
  async rename(id: string, name: string, now: string): Promise<{ suggested_room: string | null }> {
    const row = await this.db
      .updateTable('devicehub_devices')
      .set({ name: storableText(name), updated_at: now })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst();
    return { suggested_room: row ? toDevice(row).suggested_room : null };
  }

  /** Devices that left their ecosystem's list, newest removal first (for an admin to purge). */
  async removed(): Promise<RemovedDevice[]> {
    const rows = await this.withStates()
      .where('removed_at', 'is not', null)
      .orderBy('removed_at', 'desc')
      .execute();
    return rows.map((row) => ({ ...toDevice(row), removed_at: row.removed_at as string }));
  }

  /** Deletes removed devices for good (one, or all of them); resolves with how many went. */
  async purgeRemoved(id?: string): Promise<number> {
    let query = this.db.deleteFrom('devicehub_devices').where('removed_at', 'is not', null);
    if (id !== undefined) query = query.where('id', '=', id);
    const [result] = await query.execute();
    return Number(result?.numDeletedRows ?? 0);
  }

  /**
   * Writes many devices' last state (the state writer's periodic flush): one UPDATE of the state
   * table per chunk of devices, yielding to the event loop between chunks so that live traffic is
   * not held up. A device purged meanwhile has no row left, and is skipped.
   */
  async saveStates(entries: StateEntry[], chunkSize = 25) {
    for (const chunk of chunks(entries, chunkSize)) {
      const parameters: unknown[] = [];
      for (const entry of chunk) {
        parameters.push(
          entry.id,
          entry.json ?? JSON.stringify(entry.state),
          entry.lastSeen,
          entry.online === undefined ? null : entry.online ? 1 : 0,
        );
      }
      await this.db.executeQuery(CompiledQuery.raw(this.saveStatesSql(chunk.length), parameters));
      await yieldToEventLoop();
    }
  }

  /** The statements of saveStates by number of rows, compiled once for the dialect. */
  private readonly saveStatesSqls = new Map<number, string>();

  /**
   * One UPDATE … FROM (VALUES …) for `rows` devices (SQLite ≥ 3.33 and PostgreSQL): the same text
   * for every chunk of a size, so it costs no query building and hits the statement cache. The
   * casts give PostgreSQL the parameters' types; an online flag of null keeps the stored one.
   */
  private saveStatesSql(rows: number): string {
    let text = this.saveStatesSqls.get(rows);
    if (text === undefined) {
      const values = sql.join(
        Array.from(
          { length: rows },
          () =>
            sql`(cast(${''} as text), cast(${''} as text), cast(${null} as text), cast(${null} as integer))`,
        ),
      );
      text =
        sql`update devicehub_states set state = v.column2, last_seen = v.column3, online = coalesce(v.column4, devicehub_states.online) from (values ${values}) as v where devicehub_states.device_id = v.column1`.compile(
          this.db,
        ).sql;
      this.saveStatesSqls.set(rows, text);
    }
    return text;
  }

  /** Every listed device's online flag and last seen, as the state writer stored them. */
  async presence(): Promise<Presence[]> {
    // Read every few seconds by instances that do not write: the state table's columns alone.
    const rows = await this.db
      .selectFrom('devicehub_states')
      .innerJoin('devicehub_devices', 'devicehub_devices.id', 'devicehub_states.device_id')
      .select(['devicehub_states.device_id', 'devicehub_states.online', 'devicehub_states.last_seen'])
      .where('devicehub_devices.removed_at', 'is', null)
      .execute();
    return rows.map((row) => ({
      id: row.device_id,
      online: Boolean(row.online),
      last_seen: row.last_seen,
    }));
  }

  /** The registry's name of each device of a protocol, by external id (the simulator keeps its names here). */
  async namesByExternalId(protocol: string): Promise<Record<string, string>> {
    const rows = await this.db
      .selectFrom('devicehub_devices')
      .select(['external_id', 'name'])
      .where('protocol', '=', protocol)
      .execute();
    return Object.fromEntries(rows.map((row) => [row.external_id, row.name]));
  }
}

import type { Floor, Room, RoomIcon } from '@hearth/contracts';
import { type Kysely, type Selectable, sql } from 'kysely';
import type { Dialect } from '../storage/database.js';
import type { Database } from '../storage/schema.js';
import type { FloorsTable, RoomsTable } from './rooms.tables.js';

const toRoom = (row: Selectable<RoomsTable>): Room => ({
  id: row.id,
  name: row.name,
  icon: row.icon as RoomIcon,
  order: row.position,
  floor_id: row.floor_id,
});

const toFloor = (row: Selectable<FloorsTable>): Floor => ({
  id: row.id,
  name: row.name,
  order: row.position,
});

/** The key names are compared by: case-insensitive. */
export const nameKey = (name: string) => name.toLowerCase();
/** A room's floor as the uniqueness index sees it ('' without a floor). */
export const floorScope = (floorId: string | null) => floorId ?? '';

/** The columns a room's fields are stored in (its name, icon, floor and order as given). */
const roomColumns = (room: Room) => ({
  name: room.name,
  name_key: nameKey(room.name),
  icon: room.icon,
  position: room.order,
  floor_id: room.floor_id,
  floor_scope: floorScope(room.floor_id),
});

/** A device's room as stored. */
export interface DeviceRoomRow {
  id: string;
  room_id: string | null;
  room_assigned: number;
}

/** Queries of rooms, floors, device rooms and favourites on one connection or transaction. */
export class RoomsStore {
  /** The connection or transaction (another domain's part of a change, the access rules a deleted room leaves, runs in it). */
  constructor(readonly db: Kysely<Database>) {}

  async rooms(): Promise<Room[]> {
    const rows = await this.db.selectFrom('rooms').selectAll().orderBy('position').orderBy('id').execute();
    return rows.map(toRoom);
  }

  async floors(): Promise<Floor[]> {
    const rows = await this.db.selectFrom('floors').selectAll().orderBy('position').orderBy('id').execute();
    return rows.map(toFloor);
  }

  /** The room of `floorId` (null: without a floor) named `name` (any case), other than `except`. */
  async roomNamed(name: string, floorId: string | null, except?: string): Promise<Room | undefined> {
    let query = this.db
      .selectFrom('rooms')
      .selectAll()
      .where('floor_scope', '=', floorScope(floorId))
      .where('name_key', '=', nameKey(name));
    if (except) query = query.where('id', '<>', except);
    const row = await query.executeTakeFirst();
    return row && toRoom(row);
  }

  async floorNamed(name: string, except?: string): Promise<Floor | undefined> {
    let query = this.db.selectFrom('floors').selectAll().where('name_key', '=', nameKey(name));
    if (except) query = query.where('id', '<>', except);
    const row = await query.executeTakeFirst();
    return row && toFloor(row);
  }

  async insertRoom(room: Room, now: string) {
    await this.db
      .insertInto('rooms')
      .values({
        id: room.id,
        ...roomColumns(room),
        created_at: now,
        updated_at: now,
      })
      .execute();
  }

  /** Writes a room's fields (its name, icon, floor and order as given). */
  async saveRoom(room: Room, now: string) {
    await this.db
      .updateTable('rooms')
      .set({ ...roomColumns(room), updated_at: now })
      .where('id', '=', room.id)
      .execute();
  }

  async deleteRoom(id: string) {
    await this.db.deleteFrom('rooms').where('id', '=', id).execute();
  }

  async insertFloor(floor: Floor, now: string) {
    await this.db
      .insertInto('floors')
      .values({
        id: floor.id,
        name: floor.name,
        name_key: nameKey(floor.name),
        position: floor.order,
        created_at: now,
        updated_at: now,
      })
      .execute();
  }

  async saveFloor(floor: Floor, now: string) {
    await this.db
      .updateTable('floors')
      .set({ name: floor.name, name_key: nameKey(floor.name), position: floor.order, updated_at: now })
      .where('id', '=', floor.id)
      .execute();
  }

  async deleteFloor(id: string) {
    await this.db.deleteFrom('floors').where('id', '=', id).execute();
  }

  /** The listed (not removed) devices among `ids`, with their rooms. */
  async deviceRooms(ids: readonly string[]): Promise<DeviceRoomRow[]> {
    if (ids.length === 0) return [];
    return this.db
      .selectFrom('devicehub_devices')
      .select(['id', 'room_id', 'room_assigned'])
      .where('id', 'in', ids)
      .where('removed_at', 'is', null)
      .execute();
  }

  /** The listed devices that are in a room, with their room. */
  async placedDevices(): Promise<{ id: string; room_id: string }[]> {
    const rows = await this.db
      .selectFrom('devicehub_devices')
      .select(['id', 'room_id'])
      .where('room_id', 'is not', null)
      .where('removed_at', 'is', null)
      .execute();
    return rows.flatMap((row) => (row.room_id === null ? [] : [{ id: row.id, room_id: row.room_id }]));
  }

  /** Every device (removed ones too) in the room. */
  async devicesIn(roomId: string): Promise<string[]> {
    const rows = await this.db
      .selectFrom('devicehub_devices')
      .select('id')
      .where('room_id', '=', roomId)
      .execute();
    return rows.map((row) => row.id);
  }

  /** Puts the devices in the room (null: in none) and marks them assigned. */
  async assign(ids: readonly string[], roomId: string | null) {
    if (ids.length === 0) return;
    await this.db
      .updateTable('devicehub_devices')
      .set({ room_id: roomId, room_assigned: 1 })
      .where('id', 'in', ids)
      .execute();
  }

  /** The user's favourites in their order. */
  async favourites(userId: string): Promise<string[]> {
    const rows = await this.db
      .selectFrom('favourites')
      .select('device_id')
      .where('user_id', '=', userId)
      .orderBy('position')
      .execute();
    return rows.map((row) => row.device_id);
  }

  async replaceFavourites(userId: string, deviceIds: readonly string[]) {
    await this.db.deleteFrom('favourites').where('user_id', '=', userId).execute();
    if (deviceIds.length === 0) return;
    await this.db
      .insertInto('favourites')
      .values(deviceIds.map((device_id, position) => ({ user_id: userId, device_id, position })))
      .execute();
  }
}

/** Rooms' storage: plain reads, and transactions in which a change is checked and written at once. */
export class RoomsRepository extends RoomsStore {
  constructor(
    private readonly database: Kysely<Database>,
    private readonly dialect: Dialect,
  ) {
    super(database);
  }

  /**
   * On PostgreSQL, instances sharing the database take their turn on a transaction-scoped advisory
   * lock: without it two of them could both find a name free (the loser got the unique index's 500)
   * or give two new rooms the same order. SQLite has one writer anyway.
   */
  transaction<T>(work: (store: RoomsStore) => Promise<T>): Promise<T> {
    return this.database.transaction().execute(async (trx) => {
      if (this.dialect === 'postgres')
        await sql`select pg_advisory_xact_lock(hashtext(current_schema() || '/hearth/rooms'))`.execute(trx);
      return work(new RoomsStore(trx));
    });
  }
}

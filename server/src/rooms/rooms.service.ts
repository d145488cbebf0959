import {
  ACCESS_MESSAGES,
  type AssignDevicesResponse,
  DEFAULT_ROOM_ICON,
  type Favourites,
  type Floor,
  isManager,
  type Room,
  type RoomsResponse,
} from '@hearth/contracts';
import type { Kysely } from 'kysely';
import type { DeviceDirectory, Reach } from '../devicehub/index.js';
import { HttpError } from '../http/errors.js';
import { nowIso } from '../storage/columns.js';
import type { Database } from '../storage/schema.js';
import type { UserRecord } from '../users/index.js';
import { applyChange, type RoomsChange } from './rooms.changes.js';
import { ROOMS_ERRORS as E } from './rooms.errors.js';
import type { RoomsRepository, RoomsStore } from './rooms.repository.js';
import type { CreateFloor, CreateRoom, UpdateFloor, UpdateRoom } from './rooms.schemas.js';
import { type Sight, seesFloor, seesRoom, sightOf } from './rooms.sight.js';

/** What deleting a room does to the access rules naming it (implemented by the access domain, docs/access.md). */
export interface RoomRules {
  /**
   * Inside the deletion's transaction: each account's rule on the room becomes a rule on each of
   * these devices it has no rule of its own for. Answers the accounts whose rules changed.
   */
  carry(db: Kysely<Database>, roomId: string, deviceIds: readonly string[]): Promise<string[]>;
  /**
   * Once stored, before the devices move: this instance's open streams of these accounts read their
   * rules again (each instance does, as the change reaches it), so none shows a device in between.
   */
  reread(userIds: readonly string[]): Promise<void>;
}

export interface RoomsServiceDeps {
  repository: RoomsRepository;
  devices: DeviceDirectory;
  /** Tells the other instances on the bus (docs/rooms.md#several-instances). */
  share?: (change: RoomsChange) => void;
  /** The access rules a deleted room's devices keep; none: nothing to keep. */
  rules?: RoomRules;
}

/** What one change's work answers: its result and what it changed. */
type Outcome<T> = { result: T } & Partial<RoomsChange>;

const NO_CHANGE: RoomsChange = {
  floors: [],
  rooms: [],
  moved: null,
  removed_room: null,
  removed_floor: null,
  favourites_of: null,
};

/** `items` with `id` moved to `index` (clamped), every item's order its place. */
export function reorder<T extends { id: string; order: number }>(items: T[], id: string, index: number): T[] {
  const moving = items.find((item) => item.id === id);
  const rest = items.filter((item) => item.id !== id);
  if (moving) rest.splice(Math.min(index, rest.length), 0, moving);
  return rest.map((item, order) => ({ ...item, order }));
}

/** The items whose fields differ from what `before` had (or that it did not have). */
const changedFrom = <T extends { id: string }>(before: T[], after: T[]): T[] => {
  const old = new Map(before.map((item) => [item.id, JSON.stringify(item)]));
  return after.filter((item) => old.get(item.id) !== JSON.stringify(item));
};

/**
 * docs/rooms.md: rooms, floors, which room each device is in, and each user's favourites. A change is
 * checked and written in one transaction (a refusal changes nothing), one at a time, then told to
 * every open page: `room.upsert`/`room.removed`, `floor.upsert`/`floor.removed`, and a
 * `device.upsert` for each device whose room changed.
 */
export class RoomsService {
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly deps: RoomsServiceDeps) {}

  /**
   * Every room and floor; for a narrower reach, the rooms and floors it sees (rooms.sight.ts,
   * docs/access.md#where-it-is-enforced).
   */
  async list(caller: UserRecord, reach: Reach): Promise<RoomsResponse> {
    const { repository } = this.deps;
    const [rooms, floors] = await Promise.all([repository.rooms(), repository.floors()]);
    if (reach.everything) return { rooms, floors };
    const sight = sightOf(reach, { rooms, floors }, await repository.placedDevices(), isManager(caller.role));
    return {
      rooms: rooms.filter((room) => sight.rooms.has(room.id)),
      floors: floors.filter((floor) => sight.floors.has(floor.id)),
    };
  }

  /** The rooms and floors the caller sees (the activity log hides entries about the others). */
  async sight(caller: Pick<UserRecord, 'role'>, reach: Reach): Promise<Sight> {
    return this.sightIn(this.deps.repository, caller, reach);
  }

  createRoom(caller: UserRecord, input: CreateRoom, reach: Reach): Promise<Room> {
    return this.write(async (store) => {
      const floorId = input.floor_id ?? null;
      await this.checkFloor(store, floorId, await this.sightIn(store, caller, reach));
      await this.checkRoomName(store, input.name, floorId);
      const rooms = await store.rooms();
      const room: Room = {
        id: crypto.randomUUID(),
        name: input.name,
        icon: input.icon ?? DEFAULT_ROOM_ICON,
        order: rooms.length,
        floor_id: floorId,
      };
      await store.insertRoom(room, nowIso());
      return { result: room, rooms: [room] };
    });
  }

  /** Needs `control` of the room; a room the caller does not see is not found. */
  updateRoom(caller: UserRecord, id: string, patch: UpdateRoom, reach: Reach): Promise<Room> {
    return this.write(async (store) => {
      const before = await store.rooms();
      const current = before.find((room) => room.id === id);
      const sight = await this.sightIn(store, caller, reach);
      this.checkRoomControl(current, sight, reach);
      const floorId = patch.floor_id === undefined ? current.floor_id : patch.floor_id;
      if (floorId !== current.floor_id) await this.checkFloor(store, floorId, sight);
      const name = patch.name ?? current.name;
      if (name !== current.name || floorId !== current.floor_id)
        await this.checkRoomName(store, name, floorId, id);
      const edited = before.map((room) =>
        room.id === id ? { ...room, name, icon: patch.icon ?? room.icon, floor_id: floorId } : room,
      );
      const after = patch.order === undefined ? edited : reorder(edited, id, patch.order);
      const changed = changedFrom(before, after);
      const now = nowIso();
      for (const room of changed) await store.saveRoom(room, now);
      return { result: after.find((room) => room.id === id)!, rooms: changed };
    });
  }

  /**
   * Needs `control` of the room and of every device in it. The rules naming the room become rules
   * on its devices (docs/access.md#deleting-a-room): nobody reaches more than before.
   */
  deleteRoom(caller: UserRecord, id: string, reach: Reach): Promise<void> {
    return this.write(async (store) => {
      const before = await store.rooms();
      this.checkRoomControl(
        before.find((room) => room.id === id),
        await this.sightIn(store, caller, reach),
        reach,
      );
      const devices = await store.devicesIn(id);
      if (!reach.everything) {
        const listed = devices.filter((device) => this.deps.devices.has(device));
        if (listed.some((device) => reach.levelOf(device) !== 'control'))
          throw new HttpError(403, E.deleteNeedsControl);
      }
      const rulesOf = (await this.deps.rules?.carry(store.db, id, devices)) ?? [];
      await store.assign(devices, null);
      await store.deleteRoom(id);
      const after = before.filter((room) => room.id !== id).map((room, order) => ({ ...room, order }));
      const changed = changedFrom(before, after);
      const now = nowIso();
      for (const room of changed) await store.saveRoom(room, now);
      return {
        result: undefined,
        rooms: changed,
        removed_room: id,
        moved: { ids: devices, room_id: null },
        rules_of: rulesOf,
      };
    });
  }

  createFloor(_caller: UserRecord, input: CreateFloor): Promise<Floor> {
    return this.write(async (store) => {
      await this.checkFloorName(store, input.name);
      const floors = await store.floors();
      const floor: Floor = { id: crypto.randomUUID(), name: input.name, order: floors.length };
      await store.insertFloor(floor, nowIso());
      return { result: floor, floors: [floor] };
    });
  }

  /** A floor the caller does not see is not found. */
  updateFloor(caller: UserRecord, id: string, patch: UpdateFloor, reach: Reach): Promise<Floor> {
    return this.write(async (store) => {
      const before = await store.floors();
      const current = before.find((floor) => floor.id === id);
      if (!current || !seesFloor(await this.sightIn(store, caller, reach), id))
        throw new HttpError(404, E.floorNotFound);
      const name = patch.name ?? current.name;
      if (name !== current.name) await this.checkFloorName(store, name, id);
      const edited = before.map((floor) => (floor.id === id ? { ...floor, name } : floor));
      const after = patch.order === undefined ? edited : reorder(edited, id, patch.order);
      const changed = changedFrom(before, after);
      const now = nowIso();
      for (const floor of changed) await store.saveFloor(floor, now);
      return { result: after.find((floor) => floor.id === id)!, floors: changed };
    });
  }

  /**
   * Its rooms stay, without a floor; refused when one would then share a name with a room without a
   * floor. Moving them needs `control` of each.
   */
  deleteFloor(caller: UserRecord, id: string, reach: Reach): Promise<void> {
    return this.write(async (store) => {
      const before = await store.floors();
      if (
        !before.some((floor) => floor.id === id) ||
        !seesFloor(await this.sightIn(store, caller, reach), id)
      )
        throw new HttpError(404, E.floorNotFound);
      const rooms = await store.rooms();
      if (
        !reach.everything &&
        rooms.some((room) => room.floor_id === id && reach.levelOfRoom(room.id) !== 'control')
      )
        throw new HttpError(403, E.floorNeedsControl);
      const now = nowIso();
      const moved: Room[] = [];
      for (const room of rooms.filter((r) => r.floor_id === id)) {
        if (await store.roomNamed(room.name, null)) throw new HttpError(400, E.floorRoomClash(room.name));
        const without = { ...room, floor_id: null };
        await store.saveRoom(without, now);
        moved.push(without);
      }
      await store.deleteFloor(id);
      const after = before.filter((floor) => floor.id !== id).map((floor, order) => ({ ...floor, order }));
      const changed = changedFrom(before, after);
      for (const floor of changed) await store.saveFloor(floor, now);
      return { result: undefined, rooms: moved, floors: changed, removed_floor: id };
    });
  }

  /**
   * PUT /api/rooms/{id}/devices (roomId) and PUT /api/rooms/unassigned/devices (null): moves the
   * devices, all or none. Each device whose room changed, or whose name's suggestion is now
   * dismissed, gets a `device.upsert`.
   */
  assign(
    caller: UserRecord,
    roomId: string | null,
    deviceIds: string[],
    reach: Reach,
  ): Promise<AssignDevicesResponse> {
    return this.write(async (store) => {
      if (roomId !== null) {
        const exists = (await store.rooms()).some((room) => room.id === roomId);
        // A room the caller does not see is not found either.
        if (!exists || !seesRoom(await this.sightIn(store, caller, reach), roomId))
          throw new HttpError(404, E.roomNotFound);
      }
      // docs/access.md: a device out of reach is as unknown; each moved device and the room need control.
      const unknown = deviceIds.find(
        (id) => !this.deps.devices.has(id) || (!reach.everything && reach.levelOf(id) === 'none'),
      );
      if (unknown !== undefined) throw new HttpError(400, E.unknownDevice(unknown));
      if (!reach.everything) {
        if (roomId !== null && reach.levelOfRoom(roomId) !== 'control')
          throw new HttpError(403, ACCESS_MESSAGES.roomControl);
        if (deviceIds.some((id) => reach.levelOf(id) !== 'control'))
          throw new HttpError(403, ACCESS_MESSAGES.viewOnly);
      }
      const rows = await store.deviceRooms(deviceIds);
      const stored = new Set(rows.map((row) => row.id));
      const missing = deviceIds.find((id) => !stored.has(id));
      if (missing !== undefined) throw new HttpError(400, E.unknownDevice(missing));
      const changed = rows.filter((row) => row.room_id !== roomId || !row.room_assigned).map((row) => row.id);
      await store.assign(changed, roomId);
      const order = new Map(deviceIds.map((id, index) => [id, index]));
      changed.sort((a, b) => order.get(a)! - order.get(b)!);
      return { result: { room_id: roomId, changed }, moved: { ids: changed, room_id: roomId } };
    });
  }

  /** The caller's favourites that the hub lists and the caller may view, in their order. */
  async favourites(caller: UserRecord, reach: Reach): Promise<Favourites> {
    const ids = await this.deps.repository.favourites(caller.id);
    return { device_ids: ids.filter((id) => this.deps.devices.has(id) && reach.levelOf(id) !== 'none') };
  }

  /** Replaces the caller's favourites; every id must be a device the hub lists and the caller may view. */
  async setFavourites(caller: UserRecord, deviceIds: string[], reach: Reach): Promise<Favourites> {
    const unknown = deviceIds.find((id) => !this.deps.devices.has(id) || reach.levelOf(id) === 'none');
    if (unknown !== undefined) throw new HttpError(400, E.unknownDevice(unknown));
    await this.deps.repository.transaction((store) => store.replaceFavourites(caller.id, deviceIds));
    const change: RoomsChange = {
      ...NO_CHANGE,
      favourites_of: caller.id,
    };
    applyChange(this.deps.devices, change);
    this.deps.share?.(change);
    return { device_ids: deviceIds };
  }

  // ── internals ───────────────────────────────────────────────────────────────────────────────

  /** A floor the caller does not see is as unknown. */
  private async checkFloor(store: RoomsStore, floorId: string | null, sight: Sight) {
    if (floorId === null) return;
    if (!seesFloor(sight, floorId) || !(await store.floors()).some((floor) => floor.id === floorId)) {
      throw new HttpError(400, E.unknownFloor);
    }
  }

  /** A room the caller does not see is not found (404); one it sees without `control` is refused (403). */
  private checkRoomControl(room: Room | undefined, sight: Sight, reach: Reach): asserts room is Room {
    if (!room || !seesRoom(sight, room.id)) throw new HttpError(404, E.roomNotFound);
    if (!reach.everything && reach.levelOfRoom(room.id) !== 'control')
      throw new HttpError(403, ACCESS_MESSAGES.roomControl);
  }

  private async sightIn(store: RoomsStore, caller: Pick<UserRecord, 'role'>, reach: Reach): Promise<Sight> {
    if (reach.everything) return sightOf(reach, { rooms: [], floors: [] }, [], true);
    const rooms = await store.rooms();
    const floors = await store.floors();
    const placed = await store.placedDevices();
    return sightOf(reach, { rooms, floors }, placed, isManager(caller.role));
  }

  private async checkRoomName(store: RoomsStore, name: string, floorId: string | null, except?: string) {
    if (await store.roomNamed(name, floorId, except))
      throw new HttpError(400, E.roomExists(name, floorId !== null));
  }

  private async checkFloorName(store: RoomsStore, name: string, except?: string) {
    if (await store.floorNamed(name, except)) throw new HttpError(400, E.floorExists(name));
  }

  /**
   * Runs one change in a transaction, after the previous one (no two renumberings interleave), then
   * tells this instance's pages and the other instances what it changed. A refusal (HttpError)
   * rolls the transaction back: nothing changed, nothing is told.
   */
  private write<T>(work: (store: RoomsStore) => Promise<Outcome<T>>): Promise<T> {
    const run = this.queue.then(async () => {
      const { result, ...outcome } = await this.deps.repository.transaction(work);
      const change: RoomsChange = {
        ...NO_CHANGE,
        floors: outcome.floors ?? [],
        rooms: outcome.rooms ?? [],
        moved: outcome.moved ?? null,
        removed_room: outcome.removed_room ?? null,
        removed_floor: outcome.removed_floor ?? null,
        ...(outcome.rules_of?.length ? { rules_of: outcome.rules_of } : {}),
      };
      await this.apply(change);
      this.deps.share?.(change);
      return result;
    });
    this.queue = run.catch(() => {});
    return run;
  }

  /** Another instance's change (docs/rooms.md#several-instances), in turn with this one's own. */
  applyShared(change: RoomsChange): Promise<void> {
    const run = this.queue.then(() => this.apply(change));
    this.queue = run.catch(() => {});
    return run;
  }

  /** Tells the pages; the streams of those whose rules a deleted room rewrote read them first. */
  private async apply(change: RoomsChange) {
    if (change.rules_of?.length) await this.deps.rules?.reread(change.rules_of);
    // A floor's events go to those who see a room on it (docs/access.md#stream).
    const rooms = change.floors.length > 0 ? await this.deps.repository.rooms() : [];
    applyChange(this.deps.devices, change, rooms);
  }
}

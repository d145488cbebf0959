import {
  type FavouritesChangedEvent,
  type Floor,
  ROOM_ICONS,
  type Room,
  roomTopics,
} from '@hearth/contracts';
import { z } from 'zod';
import type { DeviceDirectory } from '../devicehub/index.js';

/** What one stored change did: told to this instance's pages, and to the other instances' (docs/rooms.md#several-instances). */
export interface RoomsChange {
  /** Floors created or changed (renamed, re-numbered). */
  floors: Floor[];
  /** Rooms created or changed. */
  rooms: Room[];
  /** Devices whose room changed (or whose suggestion ended), and their room. */
  moved: { ids: string[]; room_id: string | null } | null;
  removed_room: string | null;
  removed_floor: string | null;
  /** The user who replaced their favourites. */
  favourites_of?: string | null;
  /**
   * The accounts whose access rules a deleted room rewrote (docs/access.md#deleting-a-room): their
   * open streams read them again before the devices move.
   */
  rules_of?: string[] | null;
}

/**
 * docs/rooms.md#events, in this order: floors, rooms, devices, then the removals. A floor's events
 * go to the connections that see a room on it (`rooms`: the rooms now; an empty floor: residents
 * and admins), a removed room's to those that may view a device that was in it
 * (docs/access.md#stream).
 */
export function applyChange(devices: DeviceDirectory, change: RoomsChange, rooms: readonly Room[] = []) {
  const onFloor = (floorId: string) =>
    rooms.filter((room) => room.floor_id === floorId).map((room) => room.id);
  for (const floor of change.floors)
    devices.publishEvent(roomTopics.floorUpsert, floor, { rooms: onFloor(floor.id) });
  for (const room of change.rooms) devices.publishEvent(roomTopics.upsert, room);
  if (change.moved) devices.roomsAssigned(change.moved.ids, change.moved.room_id);
  if (change.removed_room) {
    // Its rules are on its devices now (docs/access.md#deleting-a-room); an empty room's are not.
    const held = change.moved?.ids ?? [];
    const audience = held.length > 0 ? { rooms: [], devices: held } : { rooms: [change.removed_room] };
    devices.publishEvent(roomTopics.removed, { id: change.removed_room }, audience);
  }
  if (change.removed_floor) {
    // The rooms that were on it: the ones the deletion moved off it.
    const audience = { rooms: change.rooms.map((room) => room.id) };
    devices.publishEvent(roomTopics.floorRemoved, { id: change.removed_floor }, audience);
  }
  if (change.favourites_of) {
    devices.publishEvent(roomTopics.favouritesChanged, {
      user_id: change.favourites_of,
    } satisfies FavouritesChangedEvent);
  }
}

const id = z.string().min(1).max(200);
const name = z.string().min(1).max(200);
const order = z.number().int().min(0);

/** A change as another instance sends it over the bus (checked before any of it reaches a browser). */
export const sharedChange = z.object({
  floors: z.array(z.object({ id, name, order })),
  rooms: z.array(z.object({ id, name, icon: z.enum(ROOM_ICONS), order, floor_id: id.nullable() })),
  moved: z.object({ ids: z.array(id), room_id: id.nullable() }).nullable(),
  removed_room: id.nullable(),
  removed_floor: id.nullable(),
  favourites_of: id.nullable().optional(),
  rules_of: z.array(id).max(100_000).nullable().optional(),
});

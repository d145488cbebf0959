import type { Floor, Room } from '@hearth/contracts';
import type { Reach } from '../devicehub/index.js';

/** The rooms and floors a caller sees (docs/access.md#where-it-is-enforced); `everything` without rules. */
export interface Sight {
  everything: boolean;
  rooms: ReadonlySet<string>;
  floors: ReadonlySet<string>;
}

export const SEES_EVERYTHING: Sight = { everything: true, rooms: new Set(), floors: new Set() };

export const seesRoom = (sight: Sight, id: string) => sight.everything || sight.rooms.has(id);
export const seesFloor = (sight: Sight, id: string) => sight.everything || sight.floors.has(id);

/**
 * A room is seen when the caller's level on it (its room rule, else the role's default) is above
 * `none`, or when it holds a device the caller may view; a floor when it holds a room the caller
 * sees, or holds none and the caller manages rooms (an empty floor hides nothing). So a resident
 * narrowed away from the Office sees every other room, the empty ones it creates included, but
 * neither the Office nor a floor holding only it.
 */
export function sightOf(
  reach: Reach,
  household: { rooms: readonly Room[]; floors: readonly Floor[] },
  /** The listed devices that are in a room, with their room. */
  placed: readonly { id: string; room_id: string }[],
  manager: boolean,
): Sight {
  if (reach.everything) return SEES_EVERYTHING;
  const rooms = new Set<string>();
  for (const room of household.rooms) if (reach.levelOfRoom(room.id) !== 'none') rooms.add(room.id);
  for (const device of placed) {
    if (!rooms.has(device.room_id) && reach.levelOf(device.id) !== 'none') rooms.add(device.room_id);
  }
  const floors = new Set<string>();
  const occupied = new Set<string>();
  for (const room of household.rooms) {
    if (room.floor_id === null) continue;
    occupied.add(room.floor_id);
    if (rooms.has(room.id)) floors.add(room.floor_id);
  }
  if (manager) for (const floor of household.floors) if (!occupied.has(floor.id)) floors.add(floor.id);
  return { everything: false, rooms, floors };
}

import type { Floor, Room, RoomsResponse } from '@hearth/contracts';
import type { RoomEvent } from './room-events.js';

const byOrder = <T extends { order: number; name: string }>(a: T, b: T) =>
  a.order - b.order || a.name.localeCompare(b.name);

/** A copy with each list in its order (docs/rooms.md#order). */
export const sortRooms = (state: RoomsResponse): RoomsResponse => ({
  rooms: [...state.rooms].sort(byOrder),
  floors: [...state.floors].sort(byOrder),
});

const upsert = <T extends { id: string; order: number; name: string }>(list: T[], item: T) =>
  [...list.filter((other) => other.id !== item.id), item].sort(byOrder);

/**
 * docs/rooms.md#events applied to the page's rooms and floors. Orders come as one upsert per
 * re-numbered room, so the list is re-sorted after each. A removed floor's rooms arrive first as
 * upserts without it; they are taken off it here too in case one was missed.
 */
export function applyRoomEvent(state: RoomsResponse, event: RoomEvent): RoomsResponse {
  switch (event.type) {
    case 'room.upsert':
      return { ...state, rooms: upsert<Room>(state.rooms, event.room) };
    case 'room.removed':
      return { ...state, rooms: state.rooms.filter((room) => room.id !== event.id) };
    case 'floor.upsert':
      return { ...state, floors: upsert<Floor>(state.floors, event.floor) };
    case 'floor.removed':
      return {
        floors: state.floors.filter((floor) => floor.id !== event.id),
        rooms: state.rooms.map((room) => (room.floor_id === event.id ? { ...room, floor_id: null } : room)),
      };
    default:
      return state;
  }
}

/** The room a suggestion names (docs/rooms.md#suggestions): same name ignoring case, any floor. */
export function roomNamed(rooms: Room[], name: string): Room | null {
  const wanted = name.trim().toLocaleLowerCase();
  return rooms.find((room) => room.name.toLocaleLowerCase() === wanted) ?? null;
}

/**
 * Wire shapes of rooms, floors and favourites (docs/rooms.md), shared by server and web app.
 */

/**
 * docs/rooms.md#icons: the icons a room may have, named as lucide (the icon set the web app draws
 * with) names them. The web app maps each to its component (`satisfies Record<RoomIcon, …>`);
 * the server refuses any other name.
 */
export const ROOM_ICONS = [
  'house',
  'sofa',
  'armchair',
  'tv',
  'bed-double',
  'baby',
  'cooking-pot',
  'utensils',
  'refrigerator',
  'bath',
  'toilet',
  'shirt',
  'washing-machine',
  'briefcase',
  'laptop',
  'book-open',
  'gamepad-2',
  'dumbbell',
  'door-open',
  'lamp',
  'archive',
  'warehouse',
  'car',
  'trees',
  'flower-2',
  'sun',
] as const;
export type RoomIcon = (typeof ROOM_ICONS)[number];

/** A room created without an icon gets this one. */
export const DEFAULT_ROOM_ICON: RoomIcon = 'house';

export const isRoomIcon = (value: unknown): value is RoomIcon =>
  typeof value === 'string' && (ROOM_ICONS as readonly string[]).includes(value);

/** docs/rooms.md#names: room and floor names are trimmed, then 1 to this many characters. */
export const ROOM_NAME_MAX_LENGTH = 64;

/** docs/rooms.md#room: a room as GET /api/rooms and `events/room.upsert` send it. */
export interface Room {
  id: string;
  name: string;
  icon: RoomIcon;
  /** 0, 1, 2, … across all rooms (whatever their floor): the household's order. */
  order: number;
  floor_id: string | null;
}

/** docs/rooms.md#floor: a floor as GET /api/rooms and `events/floor.upsert` send it. */
export interface Floor {
  id: string;
  name: string;
  /** 0, 1, 2, … across all floors. */
  order: number;
}

/** GET /api/rooms: every room and floor, each list in its order. */
export interface RoomsResponse {
  rooms: Room[];
  floors: Floor[];
}

/** POST /api/rooms (answers 201 with the Room). */
export interface CreateRoomRequest {
  name: string;
  icon?: RoomIcon;
  floor_id?: string | null;
}

/** PATCH /api/rooms/{id}: only the fields given change (answers 200 with the Room). */
export interface UpdateRoomRequest {
  name?: string;
  icon?: RoomIcon;
  /** The room's new place; the others are re-numbered (out of range: the nearest end). */
  order?: number;
  floor_id?: string | null;
}

/** POST /api/floors (answers 201 with the Floor). */
export interface CreateFloorRequest {
  name: string;
}

/** PATCH /api/floors/{id} (answers 200 with the Floor). */
export interface UpdateFloorRequest {
  name?: string;
  order?: number;
}

/** PUT /api/rooms/{id}/devices and PUT /api/rooms/unassigned/devices. */
export interface AssignDevicesRequest {
  device_ids: string[];
}

/** What both assignment calls answer: the devices whose room changed, and the room (null: unassigned). */
export interface AssignDevicesResponse {
  room_id: string | null;
  /** The devices that moved (those already there are left out). */
  changed: string[];
}

/** GET /api/favourites, and the body of PUT /api/favourites (which answers the stored list). */
export interface Favourites {
  device_ids: string[];
}

/** `events/room.removed` and `events/floor.removed`. */
export interface RoomRemovedEvent {
  id: string;
}
export type FloorRemovedEvent = RoomRemovedEvent;

/** Most ids one assignment or favourites call takes. */
export const MAX_DEVICE_IDS = 5000;

/** Topics relative to P = `{prefix}/devicehub` (docs/rooms.md#events), beside devicehubTopics. */
export const roomTopics = {
  upsert: 'events/room.upsert',
  removed: 'events/room.removed',
  floorUpsert: 'events/floor.upsert',
  floorRemoved: 'events/floor.removed',
  favouritesChanged: 'events/favourites.changed',
} as const;

/**
 * `events/favourites.changed`: a user replaced their favourites. Only the user is named: their
 * browsers (the session's user id) read `GET /api/favourites` again; others ignore it.
 */
export interface FavouritesChangedEvent {
  user_id: string;
}

/**
 * docs/rooms.md#suggestions: the room a Zigbee2MQTT friendly name `room/device` suggests: the part
 * before the last `/`, trimmed (`Living room/Lamp` → `Living room`, `Upstairs/Bedroom/Lamp` →
 * `Bedroom`); null when the name has no `/`, or either side is empty.
 */
export function roomFromDeviceName(name: string): string | null {
  const slash = name.lastIndexOf('/');
  if (slash < 0) return null;
  const device = name.slice(slash + 1).trim();
  const path = name.slice(0, slash);
  const room = path.slice(path.lastIndexOf('/') + 1).trim();
  if (!room || !device || room.length > ROOM_NAME_MAX_LENGTH) return null;
  return room;
}

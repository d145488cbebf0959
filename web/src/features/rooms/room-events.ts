import { type Floor, isRoomIcon, type Room } from '@hearth/contracts';

/** docs/rooms.md#events as the web app holds them, plus `resync` (the stream came back: read again). */
export type RoomEvent =
  | { type: 'room.upsert'; room: Room }
  | { type: 'room.removed'; id: string }
  | { type: 'floor.upsert'; floor: Floor }
  | { type: 'floor.removed'; id: string }
  | { type: 'favourites.changed'; userId: string }
  | { type: 'resync' };

type Json = Record<string, unknown>;
const text = (value: unknown): value is string => typeof value === 'string' && value !== '';
const order = (value: unknown): value is number => Number.isInteger(value) && (value as number) >= 0;

export function readRoom(body: Json): Room | null {
  const { id, name, icon, floor_id } = body;
  if (!text(id) || !text(name) || !isRoomIcon(icon) || !order(body.order)) return null;
  if (floor_id !== null && floor_id !== undefined && !text(floor_id)) return null;
  return { id, name, icon, order: body.order, floor_id: floor_id ?? null };
}

export function readFloor(body: Json): Floor | null {
  const { id, name } = body;
  if (!text(id) || !text(name) || !order(body.order)) return null;
  return { id, name, order: body.order };
}

/** One event from its kind (the topic's last part) and JSON body; null when the shape is wrong. */
export function readRoomEvent(kind: string, body: Json): RoomEvent | null {
  switch (kind) {
    case 'room.upsert': {
      const room = readRoom(body);
      return room && { type: kind, room };
    }
    case 'floor.upsert': {
      const floor = readFloor(body);
      return floor && { type: kind, floor };
    }
    case 'room.removed':
    case 'floor.removed':
      return text(body.id) ? { type: kind, id: body.id } : null;
    case 'favourites.changed':
      return text(body.user_id) ? { type: kind, userId: body.user_id } : null;
    default:
      return null;
  }
}

type Listener = (event: RoomEvent) => void;

/** The room events of the device stream, handed on to whoever listens (the rooms and favourites stores). */
export class RoomFeed {
  private listeners = new Set<Listener>();
  subscribe = (listener: Listener) => {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  };
  emit(event: RoomEvent) {
    for (const listener of this.listeners) listener(event);
  }
}

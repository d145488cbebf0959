import type { Floor, Room, RoomsResponse } from '@hearth/contracts';
import { describe, expect, it } from 'vitest';
import type { RoomEvent } from './room-events.js';
import { applyRoomEvent, roomNamed } from './rooms-state.js';

const room = (id: string, order: number, floor_id: string | null = null, name = id): Room => ({
  id,
  name,
  icon: 'house',
  order,
  floor_id,
});
const floor = (id: string, order: number): Floor => ({ id, name: id, order });
const state = (rooms: Room[], floors: Floor[] = []): RoomsResponse => ({ rooms, floors });
const ids = (list: { id: string }[]) => list.map((item) => item.id);

describe('applyRoomEvent', () => {
  const base = state([room('kitchen', 0), room('hall', 1, 'ground')], [floor('ground', 0)]);
  it.each<[string, RoomEvent, string[], string[]]>([
    [
      'a new room goes where its order says',
      { type: 'room.upsert', room: room('bath', 1) },
      ['kitchen', 'bath', 'hall'],
      ['ground'],
    ],
    [
      'an upsert replaces the room',
      { type: 'room.upsert', room: room('kitchen', 2) },
      ['hall', 'kitchen'],
      ['ground'],
    ],
    ['a removed room leaves', { type: 'room.removed', id: 'kitchen' }, ['hall'], ['ground']],
    [
      'an unknown removal changes nothing',
      { type: 'room.removed', id: 'nope' },
      ['kitchen', 'hall'],
      ['ground'],
    ],
    [
      'a new floor',
      { type: 'floor.upsert', floor: floor('attic', 0) },
      ['kitchen', 'hall'],
      ['attic', 'ground'],
    ],
    ['a removed floor', { type: 'floor.removed', id: 'ground' }, ['kitchen', 'hall'], []],
    [
      'favourites events are not rooms',
      { type: 'favourites.changed', userId: 'u' },
      ['kitchen', 'hall'],
      ['ground'],
    ],
  ])('%s', (_name, event, rooms, floors) => {
    const next = applyRoomEvent(base, event);
    expect(ids(next.rooms)).toEqual(rooms);
    expect(ids(next.floors)).toEqual(floors);
  });

  it('takes the rooms of a removed floor off it', () => {
    const next = applyRoomEvent(base, { type: 'floor.removed', id: 'ground' });
    expect(next.rooms.find((item) => item.id === 'hall')?.floor_id).toBeNull();
  });

  it('re-sorts when a reorder arrives one upsert per room', () => {
    let next = applyRoomEvent(base, { type: 'room.upsert', room: room('hall', 0, 'ground') });
    next = applyRoomEvent(next, { type: 'room.upsert', room: room('kitchen', 1) });
    expect(ids(next.rooms)).toEqual(['hall', 'kitchen']);
  });
});

describe('roomNamed', () => {
  const rooms = [room('a', 0, null, 'Kitchen'), room('b', 1, 'up', 'Living room')];
  it.each([
    ['Kitchen', 'a'],
    ['kitchen', 'a'],
    [' LIVING ROOM ', 'b'],
    ['Garage', null],
  ])('%s → %s', (name, id) => {
    expect(roomNamed(rooms, name)?.id ?? null).toBe(id);
  });
});

import { describe, expect, it } from 'vitest';
import { RoomFeed, readRoomEvent } from './room-events.js';

const room = { id: 'r1', name: 'Kitchen', icon: 'cooking-pot', order: 0, floor_id: null };

describe('readRoomEvent', () => {
  it.each<[string, Record<string, unknown>, unknown]>([
    ['room.upsert', room, { type: 'room.upsert', room }],
    ['room.upsert', { ...room, floor_id: undefined }, { type: 'room.upsert', room }],
    ['room.upsert', { ...room, icon: 'rocket' }, null],
    ['room.upsert', { ...room, order: -1 }, null],
    ['room.upsert', { ...room, name: '' }, null],
    ['room.upsert', { ...room, floor_id: 3 }, null],
    [
      'floor.upsert',
      { id: 'f', name: 'Up', order: 1 },
      { type: 'floor.upsert', floor: { id: 'f', name: 'Up', order: 1 } },
    ],
    ['floor.upsert', { id: 'f', name: 'Up' }, null],
    ['room.removed', { id: 'r1' }, { type: 'room.removed', id: 'r1' }],
    ['floor.removed', { id: 'f' }, { type: 'floor.removed', id: 'f' }],
    ['room.removed', {}, null],
    ['favourites.changed', { user_id: 'u1' }, { type: 'favourites.changed', userId: 'u1' }],
    ['favourites.changed', { user: 'u1' }, null],
    ['device.upsert', { id: 'x' }, null],
  ])('%s %j → %j', (kind, body, event) => {
    expect(readRoomEvent(kind, body)).toEqual(event);
  });
});

describe('RoomFeed', () => {
  it('hands each event to every listener until it unsubscribes', () => {
    const feed = new RoomFeed();
    const seen: string[] = [];
    const stop = feed.subscribe((event) => seen.push(event.type));
    feed.emit({ type: 'resync' });
    stop();
    feed.emit({ type: 'resync' });
    expect(seen).toEqual(['resync']);
  });
});

import type { Room } from '@hearth/contracts';
import { describe, expect, it } from 'vitest';
import type { Json } from './device.types.js';
import {
  type DeviceFilter,
  deviceSources,
  facetsOf,
  filterToSearch,
  isBatteryLow,
  isFiltering,
  matchesFilter,
  NO_FILTER,
  parseFilter,
  queryWords,
  resolveRoom,
  roomParam,
  slugify,
} from './filters.js';
import { deviceFrom } from './test-devices.js';

const room = (id: string, name: string): Room => ({ id, name, icon: 'house', order: 0, floor_id: null });
const rooms = [
  room('r1', 'Kitchen'),
  room('r2', 'Living room'),
  room('r3', 'Bed room'),
  room('r4', 'Bed-room'),
];

describe('parseFilter', () => {
  it.each<[string, Partial<DeviceFilter>]>([
    ['', {}],
    ['?room=kitchen&status=offline', { room: 'kitchen', status: 'offline' }],
    ['status=ONLINE', { status: 'online' }],
    ['status=asleep', {}],
    ['battery=low&group=room', { battery: 'low', group: 'room' }],
    ['battery=high&group=floor', {}],
    ['type=Light', { type: 'light' }],
    ['source=Tasmota', { source: 'tasmota' }],
    ['q=kitchen%20lamp', { q: 'kitchen lamp' }],
    ['q=+lamp+', { q: ' lamp ' }],
    ['room=&type=', {}],
    ['room=unassigned', { room: 'unassigned' }],
    [`q=${'x'.repeat(300)}`, { q: 'x'.repeat(200) }],
  ])('%s → %j', (search, expected) => {
    expect(parseFilter(search)).toEqual({ ...NO_FILTER, ...expected });
  });

  it.each<[Partial<DeviceFilter>, string]>([
    [{}, ''],
    [{ room: 'kitchen', status: 'offline' }, 'room=kitchen&status=offline'],
    [{ group: 'room', q: 'lamp', battery: 'low' }, 'q=lamp&battery=low&group=room'],
    [{ q: '   ' }, ''],
    [{ q: 'a&b', type: 'light' }, 'q=a%26b&type=light'],
    [{ type: 'light', source: 'shelly', status: 'online' }, 'type=light&source=shelly&status=online'],
  ])('%j → %s and back', (change, search) => {
    const filter = { ...NO_FILTER, ...change };
    expect(filterToSearch(filter)).toBe(search);
    if (filter.q.trim() || !change.q) expect(parseFilter(search)).toEqual(filter);
  });

  it.each<[Partial<DeviceFilter>, boolean]>([
    [{}, false],
    [{ group: 'room' }, false],
    [{ q: ' ' }, false],
    [{ q: 'x' }, true],
    [{ battery: 'low' }, true],
    [{ source: 'homeassistant' }, true],
  ])('isFiltering %j → %s', (change, expected) => {
    expect(isFiltering({ ...NO_FILTER, ...change })).toBe(expected);
  });
});

describe('facetsOf', () => {
  it.each<[Partial<DeviceFilter>, string]>([
    [{}, 'room,type,make'],
    [{ q: 'lamp', group: 'room' }, 'room,type,make'],
    [{ status: 'online' }, 'room,type,make,online'],
    [{ status: 'offline', battery: 'low' }, 'room,type,make,online,battery'],
    [{ source: 'tasmota' }, 'room,type,make,source'],
  ])('%j → %s', (change, facets) => {
    expect(facetsOf({ ...NO_FILTER, ...change }).join()).toBe(facets);
  });
});

describe('rooms in the URL', () => {
  it.each([
    ['Living room', 'living-room'],
    ['  Küche / Bad ', 'kuche-bad'],
    ["Kid's room 2", 'kid-s-room-2'],
    ['!!!', ''],
  ])('slugify %s → %s', (name, slug) => {
    expect(slugify(name)).toBe(slug);
  });

  it.each([
    ['r1', 'kitchen'],
    ['r2', 'living-room'],
    ['r3', 'r3'],
    ['r4', 'r4'],
  ])('roomParam %s → %s (the id when two rooms share a slug)', (id, param) => {
    expect(roomParam(rooms, rooms.find((candidate) => candidate.id === id) as Room)).toBe(param);
  });

  it('uses the id for a room called Unassigned', () => {
    const odd = room('r9', 'Unassigned');
    expect(roomParam([odd], odd)).toBe('r9');
  });

  it.each<[string, string | null | undefined]>([
    ['unassigned', null],
    ['Unassigned', null],
    ['r2', 'r2'],
    ['kitchen', 'r1'],
    ['Living Room', 'r2'],
    ['bed-room', 'r3'],
    ['garage', undefined],
  ])('resolveRoom %s → %s', (value, id) => {
    expect(resolveRoom(rooms, value)).toBe(id);
  });
});

describe('matchesFilter', () => {
  const device = (id: string, extra: Json) => deviceFrom({ id, name: id, ...extra });
  const lamp = device('Kitchen lamp', {
    type: 'light',
    model: 'LED1545G12',
    manufacturer: 'IKEA',
    room_id: 'r1',
    online: true,
  });
  const door = device('Front door', {
    type: 'sensor',
    manufacturer: 'Aqara',
    room_id: null,
    online: false,
    state: { battery: 12 },
  });
  const remote = device('Remote', {
    type: 'remote',
    room_id: 'r2',
    online: true,
    state: { battery_low: true },
  });
  const plug = device('Plug', { type: 'switch', room_id: 'r2', online: true, state: { battery: 80 } });
  const all = [lamp, door, remote, plug];
  const names = new Map(rooms.map((item) => [item.id, item.name]));

  it.each<[string, Partial<DeviceFilter>, string[]]>([
    ['nothing', {}, ['Kitchen lamp', 'Front door', 'Remote', 'Plug']],
    ['by name', { q: 'lamp' }, ['Kitchen lamp']],
    ['by model, any case', { q: 'led1545' }, ['Kitchen lamp']],
    ['by manufacturer', { q: 'aqara' }, ['Front door']],
    ['by room name', { q: 'living' }, ['Remote', 'Plug']],
    ['every word somewhere', { q: 'ikea kitchen' }, ['Kitchen lamp']],
    ['a word nowhere', { q: 'ikea garage' }, []],
    ['a room by slug', { room: 'living-room' }, ['Remote', 'Plug']],
    ['a room by id', { room: 'r1' }, ['Kitchen lamp']],
    ['unassigned', { room: 'unassigned' }, ['Front door']],
    ['an unknown room', { room: 'garage' }, []],
    ['type', { type: 'switch' }, ['Plug']],
    ['offline', { status: 'offline' }, ['Front door']],
    ['online', { status: 'online' }, ['Kitchen lamp', 'Remote', 'Plug']],
    ['battery low (percent or flag)', { battery: 'low' }, ['Front door', 'Remote']],
    ['together', { room: 'living-room', battery: 'low' }, ['Remote']],
  ])('%s', (_name, change, expected) => {
    const filter = { ...NO_FILTER, ...change };
    const context = {
      roomName: (id: string) => names.get(id),
      room: filter.room ? resolveRoom(rooms, filter.room) : undefined,
    };
    const words = queryWords(filter.q);
    expect(
      all.filter((item) => matchesFilter(item, filter, words, context)).map((item) => item.name),
    ).toEqual(expected);
  });

  it.each<[Json, boolean]>([
    [{ battery: 19 }, true],
    [{ battery: 20 }, false],
    [{ battery: '5' }, false],
    [{ battery_low: 'true' }, true],
    [{ low_battery: true }, true],
    [{ battery_low: false, battery: 90 }, false],
    [{}, false],
  ])('isBatteryLow %j → %s', (state, low) => {
    expect(isBatteryLow(deviceFrom({ id: 'x', state }))).toBe(low);
  });
});

describe('the source filter (docs/screens.md#toolbar)', () => {
  const of = (protocol: string | undefined, id: string) =>
    deviceFrom({ id, name: id, ...(protocol ? { protocol } : {}) });
  const devices = [
    of('shelly', 'a'),
    of('zigbee', 'b'),
    of('homeassistant', 'c'),
    of('matter', 'd'),
    of(undefined, 'e'),
  ];
  const context = { roomName: () => undefined, room: undefined };

  it('lists the sources present, the four in their order, then others', () => {
    expect(deviceSources(devices)).toEqual(['zigbee', 'homeassistant', 'shelly', 'matter']);
  });

  it('keeps the devices of the chosen source only', () => {
    const filter = { ...NO_FILTER, source: 'homeassistant' };
    expect(devices.filter((device) => matchesFilter(device, filter, [], context)).map((d) => d.id)).toEqual([
      'c',
    ]);
  });
});

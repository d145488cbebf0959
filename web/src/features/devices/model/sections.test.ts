import type { Floor, Room } from '@hearth/contracts';
import { describe, expect, it } from 'vitest';
import { type FloorGroup, gridRows, groupByRoom } from './sections.js';

const room = (id: string, floor_id: string | null = null): Room => ({
  id,
  name: id,
  icon: 'house',
  order: 0,
  floor_id,
});
const floor = (id: string): Floor => ({ id, name: id, order: 0 });
const roomOf: Record<string, string | null> = { a: 'kitchen', b: 'hall', c: null, d: 'gone', e: 'kitchen' };
const ids = ['a', 'b', 'c', 'd', 'e'];

/** Each group as "floor heading?: section(ids) …". */
const shape = (groups: FloorGroup[]) =>
  groups.map(
    (group) =>
      `${group.heading ? `${group.floor?.id ?? 'none'}: ` : ''}${group.sections
        .map((section) => `${section.key}(${section.ids.join('')})`)
        .join(' ')}`,
  );

describe('groupByRoom', () => {
  it.each<[string, Room[], Floor[], boolean, string[]]>([
    [
      'no floors: rooms in order, unknown rooms and none under Unassigned, last',
      [room('kitchen'), room('hall'), room('attic')],
      [],
      true,
      ['kitchen(ae) hall(b) attic() unassigned(cd)'],
    ],
    [
      'filtering: empty rooms left out',
      [room('kitchen'), room('attic')],
      [],
      false,
      ['kitchen(ae) unassigned(bcd)'],
    ],
    [
      'floors: each with its rooms, then the rooms without a floor and Unassigned',
      [room('kitchen', 'ground'), room('hall'), room('attic', 'top')],
      [floor('ground'), floor('top')],
      true,
      ['ground: kitchen(ae)', 'top: attic()', 'none: hall(b) unassigned(cd)'],
    ],
    [
      'filtering with floors: an empty floor goes',
      [room('kitchen', 'ground'), room('attic', 'top')],
      [floor('ground'), floor('top')],
      false,
      ['ground: kitchen(ae)', 'none: unassigned(bcd)'],
    ],
    ['no rooms at all', [], [], true, ['unassigned(abcde)']],
  ])('%s', (_name, rooms, floors, keepEmpty, expected) => {
    expect(shape(groupByRoom(ids, (id) => roomOf[id] ?? null, { rooms, floors }, keepEmpty))).toEqual(
      expected,
    );
  });
});

describe('gridRows', () => {
  const groups = groupByRoom(
    ids,
    (id) => roomOf[id] ?? null,
    { rooms: [room('kitchen', 'ground'), room('attic', 'ground')], floors: [floor('ground')] },
    true,
  );
  it.each<[number, string[], string[]]>([
    [
      2,
      [],
      [
        'floor:ground',
        'room:kitchen',
        'tiles:kitchen:0 ae',
        'room:attic',
        'empty:attic',
        'floor:none',
        'room:unassigned',
        'tiles:unassigned:0 bc',
        'tiles:unassigned:1 d',
      ],
    ],
    [
      3,
      ['kitchen', 'unassigned'],
      ['floor:ground', 'room:kitchen', 'room:attic', 'empty:attic', 'floor:none', 'room:unassigned'],
    ],
  ])('%i columns, %j collapsed', (columns, collapsed, expected) => {
    const rows = gridRows(groups, columns, new Set(collapsed));
    expect(rows.map((row) => (row.kind === 'tiles' ? `${row.key} ${row.ids.join('')}` : row.key))).toEqual(
      expected,
    );
  });
});

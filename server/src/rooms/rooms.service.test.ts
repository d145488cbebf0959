import { roomFromDeviceName } from '@hearth/contracts';
import { describe, expect, it } from 'vitest';
import { reorder } from './rooms.service.js';

describe('the room a device name suggests (docs/rooms.md#suggestions)', () => {
  it.each([
    ['Living room/Lamp', 'Living room'],
    ['Kitchen/Ceiling light', 'Kitchen'],
    [' Kitchen / Lamp ', 'Kitchen'],
    ['Upstairs/Bedroom/Lamp', 'Bedroom'],
    ['Lamp', null],
    ['/Lamp', null],
    ['Kitchen/', null],
    ['Kitchen/  ', null],
    ['  /Lamp', null],
    ['Upstairs//Lamp', null],
    [`${'x'.repeat(65)}/Lamp`, null],
    [`${'x'.repeat(64)}/Lamp`, 'x'.repeat(64)],
  ])('%j → %j', (name, room) => {
    expect(roomFromDeviceName(name)).toBe(room);
  });
});

describe('re-numbering on a move (docs/rooms.md#order)', () => {
  const items = ['a', 'b', 'c', 'd'].map((id, order) => ({ id, order }));
  const ids = (list: { id: string }[]) => list.map((item) => item.id).join('');

  it.each([
    ['d', 0, 'dabc'],
    ['a', 3, 'bcda'],
    ['b', 2, 'acbd'],
    ['c', 2, 'abcd'],
    ['a', 99, 'bcda'],
  ])('%s to %i gives %s, numbered 0…n-1', (id, index, expected) => {
    const after = reorder(items, id, index);
    expect(ids(after)).toBe(expected);
    expect(after.map((item) => item.order)).toEqual([0, 1, 2, 3]);
  });
});

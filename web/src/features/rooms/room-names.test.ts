import { describe, expect, it } from 'vitest';
import { nameInRoom } from './room-names.js';

describe('nameInRoom', () => {
  it.each<[string, string | null, string]>([
    ['Kitchen lamp', 'Kitchen', 'Lamp'],
    ['kitchen lamp', 'Kitchen', 'Lamp'],
    ['Kitchen/Lamp', 'Kitchen', 'Lamp'],
    ['Kitchen / ceiling light', 'kitchen', 'Ceiling light'],
    ['Kitchen - Kettle plug', 'Kitchen', 'Kettle plug'],
    ['Kitchen: fridge', 'Kitchen', 'Fridge'],
    ['Upstairs/Bedroom/Lamp', 'Bedroom', 'Lamp'],
    ['Living room lamp', 'Living room', 'Lamp'],
    ['Kitchen iPhone charger', 'Kitchen', 'iPhone charger'],
    ['Kitchen 2 lamp', 'Kitchen', '2 lamp'],
    // Unchanged: no separator after the room's name, nothing left, another room, no room.
    ['Kitchenette light', 'Kitchen', 'Kitchenette light'],
    ['Kitchen', 'Kitchen', 'Kitchen'],
    ['Kitchen/', 'Kitchen', 'Kitchen/'],
    ['Kitchen lamp', 'Bedroom', 'Kitchen lamp'],
    ['Lamp in the kitchen', 'Kitchen', 'Lamp in the kitchen'],
    ['Bedroom/Lamp', 'Kitchen', 'Bedroom/Lamp'],
    ['Kitchen lamp', null, 'Kitchen lamp'],
    ['Kitchen lamp', '  ', 'Kitchen lamp'],
  ])('%s under %s shows %s', (name, room, shown) => {
    expect(nameInRoom(name, room)).toBe(shown);
  });
});

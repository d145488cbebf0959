import { describe, expect, it } from 'vitest';
import { guessRoomIcon } from './room-icon-guess.js';

describe('guessRoomIcon (docs/rooms.md#icons)', () => {
  it.each([
    ['Kitchen', 'cooking-pot'],
    ['kitchenette', 'cooking-pot'],
    ['Living room', 'sofa'],
    ['Lounge', 'sofa'],
    ['Bedroom', 'bed-double'],
    ['Master bedroom', 'bed-double'],
    ['Guest bathroom', 'bath'],
    ['Bathroom 2', 'bath'],
    ['WC', 'toilet'],
    ['Nursery', 'baby'],
    ["Kids' room", 'baby'],
    ['Dining room', 'utensils'],
    ['Laundry', 'washing-machine'],
    ['Walk-in closet', 'shirt'],
    ['Home office', 'briefcase'],
    ['Study', 'book-open'],
    ['Games room', 'gamepad-2'],
    ['Gym', 'dumbbell'],
    ['Hallway', 'door-open'],
    ['Entrance', 'door-open'],
    ['Garage', 'car'],
    ['Garden shed', 'warehouse'],
    ['Attic', 'archive'],
    ['Back garden', 'trees'],
    ['Balcony', 'flower-2'],
    ['Patio', 'sun'],
    ['TV room', 'tv'],
  ])('%s → %s', (name, icon) => {
    expect(guessRoomIcon(name)).toBe(icon);
  });

  it.each(['', 'Room 7', 'Bedlam', 'Hallelujah', 'Workbench corner'])('%s suggests nothing', (name) => {
    expect(guessRoomIcon(name)).toBeNull();
  });
});

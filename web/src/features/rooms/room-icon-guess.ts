import type { RoomIcon } from '@hearth/contracts';

/**
 * docs/rooms.md#icons: the icon a room's name suggests, first match wins (a "Guest bathroom" is
 * a bathroom before it is a guest room). Words are matched whole, ignoring case, in English.
 */
const GUESSES: [RegExp, RoomIcon][] = [
  [/\b(bath(room)?s?|shower(room)?|en-?suite|ensuite)\b/, 'bath'],
  [/\b(toilets?|wc|loo|restroom|lavatory|powder room)\b/, 'toilet'],
  [/\b(nursery|baby|kids?|child(ren)?|children's|kids')\b/, 'baby'],
  [/\b(bed(room)?s?|master|sleeping|guest room)\b/, 'bed-double'],
  [/\b(kitchen(ette)?|cook(ing)?)\b/, 'cooking-pot'],
  [/\b(dining( room)?|dinner)\b/, 'utensils'],
  [/\b(pantry|larder|fridge)\b/, 'refrigerator'],
  [/\b(laundry|utility|washing)\b/, 'washing-machine'],
  [/\b(wardrobe|closet|dressing( room)?|walk-in)\b/, 'shirt'],
  [/\b(living( room)?|lounge|sitting room|family room|den)\b/, 'sofa'],
  [/\b(tv|media|cinema|theat(er|re))( room)?\b/, 'tv'],
  [/\b(reading|library|study)\b/, 'book-open'],
  [/\b(office|work ?room)\b/, 'briefcase'],
  [/\b(computer|desk)\b/, 'laptop'],
  [/\b(games?|gaming|play(room)?)\b/, 'gamepad-2'],
  [/\b(gym|fitness|workout)\b/, 'dumbbell'],
  [/\b(hall(way)?|entrance|entry|foyer|corridor|landing|stairs|staircase|porch)\b/, 'door-open'],
  [/\b(garage|carport|driveway)\b/, 'car'],
  [/\b(shed|workshop|barn|basement|cellar)\b/, 'warehouse'],
  [/\b(storage|store ?room|attic|loft|box ?room)\b/, 'archive'],
  [/\b(garden|yard|backyard|lawn)\b/, 'trees'],
  [/\b(balcony|greenhouse)\b/, 'flower-2'],
  [/\b(terrace|patio|deck|conservatory|sun ?room)\b/, 'sun'],
];

/** The icon a room's name suggests ("Kitchen" → `cooking-pot`), or null when it suggests none. */
export function guessRoomIcon(name: string): RoomIcon | null {
  const text = name.toLowerCase();
  return GUESSES.find(([words]) => words.test(text))?.[1] ?? null;
}

/**
 * What home's live part has to show (docs/screens.md#examples): not known yet; favourites or rooms
 * or devices (the examples go below them); or nothing at all, a hub without devices (the examples
 * come first).
 */
export type LiveContent = 'pending' | 'some' | 'none';

import { MANAGER_ROLES, ROLES, type Role } from '@hearth/contracts';

/**
 * docs/rooms.md#access: the one statement of who may see and change rooms, floors, assignments and
 * favourites. Seeing rooms and keeping favourites is for every account, narrowed by its reach
 * (docs/access.md#where-it-is-enforced): a caller without the fast path sees the rooms holding a
 * device it may view, and favours only such devices. Assigning needs a manager with `control`.
 */
export const ROOM_ACCESS: { see: readonly Role[]; manage: readonly Role[]; favourites: readonly Role[] } = {
  /** GET /api/rooms: every account (the rooms it may see). */
  see: ROLES,
  /** Create, rename, reorder, delete, assign. */
  manage: MANAGER_ROLES,
  /** Their own favourites: every account (among the devices it may view). */
  favourites: ROLES,
};

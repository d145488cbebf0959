import { MANAGER_ROLES, type Role } from '@hearth/contracts';

/**
 * docs/rooms.md#access: the one statement of who may see and change rooms, floors, assignments and
 * favourites. Today it is the managers' rule (resident, admin) for all of it; per-room rules
 * replace it here.
 */
export const ROOM_ACCESS: { see: readonly Role[]; manage: readonly Role[]; favourites: readonly Role[] } = {
  /** GET /api/rooms: whoever may see devices. */
  see: MANAGER_ROLES,
  /** Create, rename, reorder, delete, assign. */
  manage: MANAGER_ROLES,
  /** Their own favourites: whoever may see devices. */
  favourites: MANAGER_ROLES,
};

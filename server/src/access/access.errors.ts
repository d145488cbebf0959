import { ACCESS_MESSAGES } from '@hearth/contracts';

/** Every message the access rules answer with (docs/access.md#messages); asserted in tests. */
export const ACCESS_ERRORS = {
  ...ACCESS_MESSAGES,
  userNotFound: 'User not found',
  forbidden: 'Forbidden',
  adminRules: 'Admins always control every device: their access cannot be changed',
  ownRules: 'You cannot change your own access',
  residentEdits: 'Residents may only change the access of user accounts',
  level: 'A level must be none, view or control',
  rules: 'rooms and devices must be objects of ids and levels',
  tooMany: 'rooms and devices may hold at most 5000 entries each',
  userIdMismatch: 'user_id must be the user of the address',
  unknownRoom: (id: string) => `Unknown room: ${id}`,
  unknownDevice: (id: string) => `Unknown device: ${id}`,
  resetWithoutRole: 'reset_access goes with a role',
  /** docs/access.md#granting: a room or device named by its name (by the id sent, should its name be hidden from the caller). */
  beyondOwn: (what: string) => `You may not give more access than you have yourself: ${what}`,
  narrowedReset: 'Your own access is narrowed: you may keep this person’s access rules, not reset them',
} as const;

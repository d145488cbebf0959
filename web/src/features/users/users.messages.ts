import type { Role } from '@hearth/contracts';

/** docs/screens.md#users-page and docs/strings.md#users: the Users page's texts. */
export const USERS_MESSAGES = {
  noPermission: 'You do not have permission to view this page.',
  fetchFailed: 'Failed to fetch users',
  roleFailed: 'Failed to update role',
  lockoutFailed: 'Failed to update lockout',
  roleUpdated: 'Role updated',
  locked: 'User locked',
  unlocked: 'User unlocked',
  accessRules: 'Access rules',
  keepRules: 'Keep rules',
  resetRules: 'Reset rules',
  cancel: 'Cancel',
} as const;

/** docs/screens.md#role-and-lock-changes: the question a role change asks first. */
export const roleDialogTitle = (userName: string, role: Role) => `Make ${userName} a ${role}?`;
export const roleDialogText = (role: Role) =>
  `Keep the access rules set for this person, or reset them to what a ${role} gets by default?`;

export const subtitle = (total: number) =>
  `Manage roles, lockouts, and search the directory · ${total} total`;

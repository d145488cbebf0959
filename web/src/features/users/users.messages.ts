/** docs/screens.md#users-page and docs/strings.md#users: the Users page's texts. */
export const USERS_MESSAGES = {
  noPermission: 'You do not have permission to view this page.',
  fetchFailed: 'Failed to fetch users',
  roleFailed: 'Failed to update role',
  lockoutFailed: 'Failed to update lockout',
  roleUpdated: 'Role updated',
  locked: 'User locked',
  unlocked: 'User unlocked',
} as const;

export const subtitle = (total: number) =>
  `Manage roles, lockouts, and search the directory · ${total} total`;

import { isManager, ROLES, type Role } from '@hearth/contracts';

/** docs/roles.md: who may open the Users page: the managers. */
export const canViewUsers = (role: Role | null | undefined): boolean => isManager(role);

/** docs/roles.md: the roles a viewer may assign. */
export function assignableRoles(viewer: Role | null | undefined): Role[] {
  if (viewer === 'admin') return [...ROLES];
  if (viewer === 'resident') return ['resident'];
  return [];
}

export interface RoleChoice {
  /** The options the dropdown lists; the current role is always there so the select shows the truth. */
  options: { role: Role; disabled: boolean }[];
  /** True when the viewer can't change this row's role at all. */
  locked: boolean;
}

interface Person {
  id: string;
  role: Role;
}

/**
 * The role dropdown for one row. A viewer can change a row only when the row's current role and
 * at least one other role are within what the viewer may assign — so a resident can promote a
 * `user` to `resident` but can't touch an admin — and never their own row (nobody changes their
 * own role here; the server enforces the same).
 */
export function roleChoice(viewer: Person, row: Person): RoleChoice {
  const assignable = assignableRoles(viewer.role);
  const rowIsOwn = viewer.id === row.id;
  const canTouchRow = !rowIsOwn && (viewer.role === 'admin' || row.role !== 'admin');
  const options = ROLES.filter((role) => role === row.role || assignable.includes(role)).map((role) => ({
    role,
    disabled: role !== row.role && !(canTouchRow && assignable.includes(role)),
  }));
  const locked = !canTouchRow || !options.some((option) => option.role !== row.role && !option.disabled);
  return { options, locked };
}

/** docs/roles.md and DESIGN: Lock/Unlock is offered to Users-page viewers, but not on their own row or, for a resident, an admin's. */
export function canToggleLock(viewer: Person, row: Person): boolean {
  if (!canViewUsers(viewer.role) || viewer.id === row.id) return false;
  return viewer.role === 'admin' || row.role !== 'admin';
}

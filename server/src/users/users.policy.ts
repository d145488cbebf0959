import { USER_ADMIN_ERRORS } from './users.errors.js';
import type { Role, UserRecord } from './users.repository.js';

/**
 * The role rules of docs/roles.md and DESIGN.md's security baseline, as pure functions so that
 * every combination is table-tested. Each answers undefined when allowed, else the 403 message.
 */

const RANK: Record<Role, number> = { user: 0, resident: 1, admin: 2 };

/** May the caller manage the target at all (edit names of, lock, set a picture of)? */
export function manageDenial(caller: UserRecord, target: UserRecord): string | undefined {
  if (caller.id === target.id) return undefined;
  if (caller.role === 'user') return USER_ADMIN_ERRORS.forbidden;
  if (caller.role === 'resident' && target.role === 'admin') return USER_ADMIN_ERRORS.touchAdmin;
  return undefined;
}

/** Roles the caller may hand out to someone else (the Users page dropdown). */
export function assignableRoles(caller: Pick<UserRecord, 'role'>): Role[] {
  if (caller.role === 'admin') return ['user', 'resident', 'admin'];
  if (caller.role === 'resident') return ['resident'];
  return [];
}

/**
 * May the caller give `target` the role `role`? `otherAdmins` is the number of admins besides the
 * target (the last admin stays admin). Setting the role a user already has changes nothing and is
 * judged like any other edit of that user.
 */
export function roleChangeDenial(
  caller: UserRecord,
  target: UserRecord,
  role: Role,
  otherAdmins: number,
): string | undefined {
  const denial = manageDenial(caller, target);
  if (denial) return denial;
  if (role === target.role) return undefined;
  if (caller.id === target.id) {
    if (RANK[role] > RANK[caller.role]) return USER_ADMIN_ERRORS.ownRole;
    // Stepping down is an admin's choice only; a resident can't assign `user`, not even to itself.
    if (caller.role !== 'admin') return USER_ADMIN_ERRORS.ownRole;
  } else if (!assignableRoles(caller).includes(role)) {
    return caller.role === 'resident' ? USER_ADMIN_ERRORS.residentAssigns : USER_ADMIN_ERRORS.forbidden;
  }
  if (target.role === 'admin' && otherAdmins < 1) return USER_ADMIN_ERRORS.lastAdmin;
  return undefined;
}

/**
 * May the caller lock (or unlock) the target? `otherActiveAdmins` counts admins besides the target
 * that are not admin-locked: locking the last usable admin would leave nobody to unlock anyone.
 */
export function lockDenial(
  caller: UserRecord,
  target: UserRecord,
  lock: boolean,
  otherActiveAdmins: number,
): string | undefined {
  if (caller.role === 'user') return USER_ADMIN_ERRORS.forbidden;
  if (caller.id === target.id) return USER_ADMIN_ERRORS.lockSelf;
  if (caller.role !== 'admin' && target.role === 'admin') return USER_ADMIN_ERRORS.lockAdmin;
  if (lock && target.role === 'admin' && otherActiveAdmins < 1) return USER_ADMIN_ERRORS.lockLastAdmin;
  return undefined;
}

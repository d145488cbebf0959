import { describe, expect, it } from 'vitest';
import { userRecord } from '../../test/users.js';
import { USER_ADMIN_ERRORS } from './users.errors.js';
import { assignableRoles, lockDenial, roleChangeDenial } from './users.policy.js';
import type { Role } from './users.repository.js';

const person = (id: string, role: Role) => userRecord({ id, role });

const E = USER_ADMIN_ERRORS;

describe('roleChangeDenial', () => {
  // [caller role, target ("self" or another user's role), requested role, other admins, expected]
  const table: [Role, 'self' | Role, Role, number, string | undefined][] = [
    ['user', 'self', 'user', 1, undefined],
    ['user', 'self', 'resident', 1, E.ownRole],
    ['user', 'self', 'admin', 1, E.ownRole],
    ['user', 'user', 'resident', 1, E.forbidden],
    ['user', 'resident', 'user', 1, E.forbidden],
    ['user', 'admin', 'user', 1, E.forbidden],
    ['resident', 'self', 'admin', 1, E.ownRole],
    ['resident', 'self', 'user', 1, E.ownRole],
    ['resident', 'self', 'resident', 1, undefined],
    ['resident', 'user', 'resident', 1, undefined],
    ['resident', 'user', 'admin', 1, E.residentAssigns],
    ['resident', 'resident', 'user', 1, E.residentAssigns],
    ['resident', 'resident', 'admin', 1, E.residentAssigns],
    ['resident', 'admin', 'user', 1, E.touchAdmin],
    ['resident', 'admin', 'resident', 1, E.touchAdmin],
    ['resident', 'admin', 'admin', 1, E.touchAdmin],
    ['admin', 'self', 'resident', 0, E.lastAdmin],
    ['admin', 'self', 'user', 0, E.lastAdmin],
    ['admin', 'self', 'user', 1, undefined],
    ['admin', 'self', 'admin', 0, undefined],
    ['admin', 'user', 'resident', 1, undefined],
    ['admin', 'user', 'admin', 1, undefined],
    ['admin', 'resident', 'user', 1, undefined],
    ['admin', 'admin', 'user', 1, undefined],
    ['admin', 'admin', 'resident', 0, E.lastAdmin],
  ];

  it.each(table)(
    '%s changing %s to %s (other admins %i) → %s',
    (callerRole, target, role, others, expected) => {
      const caller = person('caller', callerRole);
      const subject = target === 'self' ? caller : person('target', target);
      expect(roleChangeDenial(caller, subject, role, others)).toBe(expected);
    },
  );
});

describe('lockDenial', () => {
  const table: [Role, 'self' | Role, boolean, number, string | undefined][] = [
    ['user', 'user', true, 1, E.forbidden],
    ['user', 'self', true, 1, E.forbidden],
    ['resident', 'self', true, 1, E.lockSelf],
    ['resident', 'user', true, 1, undefined],
    ['resident', 'resident', true, 1, undefined],
    ['resident', 'resident', false, 1, undefined],
    ['resident', 'admin', true, 1, E.lockAdmin],
    ['resident', 'admin', false, 1, E.lockAdmin],
    ['admin', 'self', true, 1, E.lockSelf],
    ['admin', 'self', false, 1, E.lockSelf],
    ['admin', 'admin', true, 1, undefined],
    ['admin', 'admin', true, 0, E.lockLastAdmin],
    ['admin', 'admin', false, 0, undefined],
    ['admin', 'user', true, 0, undefined],
  ];

  it.each(table)(
    '%s locking %s (lock %s, other admins %i) → %s',
    (callerRole, target, lock, others, expected) => {
      const caller = person('caller', callerRole);
      const subject = target === 'self' ? caller : person('target', target);
      expect(lockDenial(caller, subject, lock, others)).toBe(expected);
    },
  );
});

describe('assignableRoles', () => {
  it('offers each role only what docs/roles.md allows', () => {
    expect(assignableRoles({ role: 'user' })).toEqual([]);
    expect(assignableRoles({ role: 'resident' })).toEqual(['resident']);
    expect(assignableRoles({ role: 'admin' })).toEqual(['user', 'resident', 'admin']);
  });
});

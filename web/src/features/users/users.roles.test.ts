import type { Role } from '@hearth/contracts';
import { describe, expect, it } from 'vitest';
import { assignableRoles, canToggleLock, canViewUsers, roleChoice } from './users.roles.js';

const person = (id: string, role: Role) => ({ id, role });

describe('who sees the Users page (docs/roles.md)', () => {
  it.each([
    ['user', false],
    ['resident', true],
    ['admin', true],
    [null, false],
  ] as const)('%s → %s', (role, expected) => {
    expect(canViewUsers(role)).toBe(expected);
  });
});

describe('assignable roles (docs/roles.md)', () => {
  it.each([
    ['user', []],
    ['resident', ['resident']],
    ['admin', ['user', 'resident', 'admin']],
  ] as const)('%s may assign %j', (viewer, roles) => {
    expect(assignableRoles(viewer)).toEqual(roles);
  });
});

describe('role dropdown per row', () => {
  const admin = person('a', 'admin');
  const resident = person('r', 'resident');

  it('offers an admin every role on someone else', () => {
    expect(roleChoice(admin, person('u', 'user'))).toEqual({
      options: [
        { role: 'user', disabled: false },
        { role: 'resident', disabled: false },
        { role: 'admin', disabled: false },
      ],
      locked: false,
    });
  });

  it('lets a resident promote a user to resident but never offers admin', () => {
    expect(roleChoice(resident, person('u', 'user'))).toEqual({
      options: [
        { role: 'user', disabled: false },
        { role: 'resident', disabled: false },
      ],
      locked: false,
    });
  });

  it('shows an admin row read-only to a resident (the current role stays the selected option)', () => {
    const choice = roleChoice(resident, person('a2', 'admin'));
    expect(choice.locked).toBe(true);
    expect(choice.options).toEqual([
      { role: 'resident', disabled: true },
      { role: 'admin', disabled: false },
    ]);
  });

  it('leaves a resident nothing to change on another resident', () => {
    expect(roleChoice(resident, person('r2', 'resident'))).toEqual({
      options: [{ role: 'resident', disabled: false }],
      locked: true,
    });
  });

  it('never lets viewers change their own role', () => {
    expect(roleChoice(admin, admin).locked).toBe(true);
    expect(roleChoice(resident, resident).locked).toBe(true);
  });
});

describe('Lock/Unlock', () => {
  it.each([
    [person('a', 'admin'), person('u', 'user'), true],
    [person('a', 'admin'), person('a2', 'admin'), true],
    [person('a', 'admin'), person('a', 'admin'), false],
    [person('r', 'resident'), person('u', 'user'), true],
    [person('r', 'resident'), person('a', 'admin'), false],
    [person('u', 'user'), person('u2', 'user'), false],
  ])('%j on %j → %s', (viewer, row, expected) => {
    expect(canToggleLock(viewer, row)).toBe(expected);
  });
});

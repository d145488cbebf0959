import type { NewUser, Role, UserRecord, UsersRepository } from '../src/users/index.js';

/** A user record as the repository returns it, for unit tests of rules that take one. */
export function userRecord(fields: Partial<UserRecord> & Pick<UserRecord, 'id'>): UserRecord {
  return {
    email: `${fields.id}@example.com`,
    userName: fields.id,
    firstName: fields.id,
    lastName: 'Test',
    passwordHash: null,
    role: 'user',
    emailConfirmed: true,
    twoFactorEnabled: false,
    lockoutEnabled: false,
    lockoutReason: null,
    lockoutUntil: null,
    tokensValidAfter: null,
    profilePicture: null,
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    ...fields,
  };
}

let stored = 0;

/** A user written straight to storage (no sign-up mail), with unique names unless `fields` gives them. */
export function storeUser(
  users: Pick<UsersRepository, 'create'>,
  role: Role = 'user',
  fields: Partial<NewUser> = {},
): Promise<UserRecord> {
  const n = `${++stored}${Date.now().toString(36)}`;
  return users.create({
    email: `person${n}@example.com`,
    userName: `person${n}`,
    firstName: `First${n}`,
    lastName: `Last${n}`,
    passwordHash: null,
    role,
    ...fields,
  });
}

/**
 * docs/roles.md: who may manage another person (edit their names, lock them, set their picture),
 * as the status each of those calls answers.
 */
export const MANAGING_ANOTHER: [caller: Role, target: Role, status: 200 | 403][] = [
  ['user', 'user', 403],
  ['user', 'resident', 403],
  ['user', 'admin', 403],
  ['resident', 'user', 200],
  ['resident', 'resident', 200],
  ['resident', 'admin', 403],
  ['admin', 'user', 200],
  ['admin', 'resident', 200],
  ['admin', 'admin', 200],
];

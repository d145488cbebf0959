import type { UserRecord } from '../src/users/index.js';

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

import type { Role, User } from '@hearth/contracts';

/** A user as GET /api/auth/me gives it, for component tests: names made from `id`, `extra` on top. */
export const testUser = (id: string, role: Role, extra: Partial<User> = {}): User => ({
  id,
  first_name: id.toUpperCase(),
  last_name: 'Test',
  user_name: id,
  name: `${id} Test`,
  email: `${id}@example.test`,
  role,
  email_confirmed: false,
  lockout_enabled: false,
  two_factor_enabled: false,
  profile_picture_url: null,
  ...extra,
});

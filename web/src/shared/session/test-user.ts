import type { Role, User } from '@hearth/contracts';
import type { SessionValue } from './session-context.js';

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

/** The session a component test renders under: `user` signed in (or nobody), nothing loading. */
export const testSession = (user: User | null): SessionValue => ({
  user,
  accessToken: user ? 'token' : null,
  loading: false,
  refreshUser: async () => {},
  logout: async () => {},
  openAuthModal: () => {},
});

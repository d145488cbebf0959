import type { User } from '@hearth/contracts';
import type { UserRecord } from './users.repository.js';

/** Where stored profile pictures are served; the column holds only the file name. */
export const PROFILE_PICTURES_PATH = '/api/auth/profile/pictures';

/**
 * docs/api.md#user: the user as the API returns it. The only place a UserRecord becomes JSON, so a
 * password hash or lockout internals can never leak through a response.
 */
export function toUserView(user: UserRecord): User {
  return {
    id: user.id,
    first_name: user.firstName,
    last_name: user.lastName,
    user_name: user.userName,
    name: `${user.firstName} ${user.lastName}`.trim(),
    email: user.email,
    role: user.role,
    email_confirmed: user.emailConfirmed,
    lockout_enabled: user.lockoutEnabled,
    two_factor_enabled: user.twoFactorEnabled,
    profile_picture_url: user.profilePicture ? `${PROFILE_PICTURES_PATH}/${user.profilePicture}` : null,
  };
}

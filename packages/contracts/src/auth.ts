/** Wire shapes of /api/auth (SPEC 3.1–3.7, 7.1), shared by server and web app. */
import type { Role } from './roles.js';

/** SPEC 3.1: the user as /api/auth/me and the users list return it. */
export interface User {
  id: string;
  first_name: string;
  last_name: string;
  user_name: string;
  name: string;
  email: string;
  role: Role;
  email_confirmed: boolean;
  lockout_enabled: boolean;
  two_factor_enabled: boolean;
  profile_picture_url: string | null;
}

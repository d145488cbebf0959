/** Wire shapes of /api/auth (docs/api.md#shapes and #accounts), shared by server and web app. */
import type { Role } from './roles.js';

/** docs/api.md#user: the user as /api/auth/me and the users list return it. */
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

/** docs/api.md#users-page: GET /api/auth/users. */
export interface UsersPage {
  users: User[];
  page: number;
  page_size: number;
  total: number;
  total_pages: number;
}

/** docs/api.md#sign-up: POST /api/auth/signup (answers 201 with the User). */
export interface SignupRequest {
  first_name: string;
  last_name: string;
  user_name: string;
  email: string;
  password: string;
}

/** docs/api.md#token-pair: what /login/finish, /refresh and a completed /2fa/email/verify answer. */
export interface TokenPair {
  access_token: string;
  refresh_token: string;
}

/** docs/api.md#login-start-answer: POST /api/auth/login/start: signed in, or a second factor is needed. */
export type LoginStartResponse =
  | ({ '2fa_required': false } & TokenPair)
  | { '2fa_required': true; user_id: string; '2fa_type': TwoFactorType };

export type TwoFactorType = 'email';

export type LockoutReason = 'login_lockout' | 'admin_lock';

/**
 * docs/api.md#lockout-answer: the 423 body. `unlock_at` is epoch seconds; both numbers are null for an
 * administrator's lock, which has no end.
 */
export interface LockoutError {
  error: string;
  reason: LockoutReason;
  lockout_remaining: number | null;
  unlock_at: number | null;
}

/** Every failed call: `{error}` (429 answers also carry a `Retry-After` header). */
export interface ApiError {
  error: string;
}

/** Answers of the settings calls that change the user (e-mail confirmed, 2FA on/off). */
export interface MessageWithUser {
  message: string;
  user: User;
}

/** POST /api/auth/password/change: other sessions end; this one continues with a new pair. */
export interface PasswordChangeResponse extends TokenPair {
  message: string;
}

/** One signed-in session of the caller (GET /api/auth/sessions): Settings → Sessions. */
export interface SessionView {
  id: string;
  /** "Chrome on macOS", "Firefox on Android"; "Unknown browser" when the user agent says nothing. */
  browser: string;
  /** "Desktop", "Phone", "Tablet" or "Unknown device". */
  device: string;
  ip: string | null;
  created_at: string;
  last_used_at: string;
  /** The session this request came from. */
  current: boolean;
}

export interface SessionsResponse {
  sessions: SessionView[];
}

/** A provider account linked to the caller (GET /api/auth/identities). */
export interface IdentityView {
  provider: string;
  /** The provider's display name ("Google", "Keycloak"). */
  name: string;
  email: string | null;
  created_at: string;
}

export interface IdentitiesResponse {
  identities: IdentityView[];
}

/** docs/api.md#preferences: GET and PATCH /api/auth/preferences, the caller's own settings of the app. */
export interface Preferences {
  /** Home leaves out the sample tiles under "Examples" ("Hide examples"). */
  hide_examples: boolean;
}

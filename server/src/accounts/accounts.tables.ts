import type { Generated } from 'kysely';

/** A refresh token; every rotation adds a row to the same family. Only its SHA-256 is stored. */
export interface RefreshTokensTable {
  id: string;
  family_id: string;
  user_id: string;
  token_hash: string;
  single_use: Generated<number>;
  /** The access token issued beside it (jti, iat, ttl), so a grace re-use can return the same pair. */
  access_jti: string;
  access_issued_at: number;
  access_ttl: number;
  created_at: string;
  /** Idle expiry of this token, never past family_expires_at (the absolute lifetime). */
  expires_at: string;
  family_expires_at: string;
  rotated_at: string | null;
  replaced_by: string | null;
  revoked_at: string | null;
}

export type CodePurpose = 'email_verify' | 'login_2fa' | '2fa_setup' | 'password_reset';

/** Six-digit codes sent by mail, stored as an HMAC. */
export interface OneTimeCodesTable {
  id: string;
  user_id: string;
  purpose: CodePurpose;
  code_hash: string;
  attempts: Generated<number>;
  created_at: string;
  expires_at: string;
  used_at: string | null;
  /** Set when 5 wrong tries burned the code or a newer code replaced it. */
  burned_at: string | null;
}

/** One sign-in session (a refresh-token family): listed in Settings, revocable one by one. */
export interface AuthSessionsTable {
  /** The family id of its refresh tokens, and the `sid` claim of its access tokens. */
  id: string;
  user_id: string;
  user_agent: string | null;
  ip: string | null;
  created_at: string;
  /** When it was signed in or last refreshed (about every 15 minutes while in use). */
  last_used_at: string;
  /** The family's absolute end (30 days after sign-in). */
  expires_at: string;
  revoked_at: string | null;
  /**
   * When it last proved who is behind it: its sign-in, or the password confirmed again
   * (POST /api/auth/reauth). Null for sessions from before migration 0016.
   */
  authenticated_at: string | null;
}

/** Attempts in the running 15-minute window by normalised e-mail, and the lock if any (migration 0007). */
export interface LoginAttemptsTable {
  email_key: string;
  failures: number;
  window_ends_at: string;
  locked_until: string | null;
}

/** Tables of the accounts domain (migrations 0002, 0007 and 0016). */
export interface AccountsTables {
  refresh_tokens: RefreshTokensTable;
  one_time_codes: OneTimeCodesTable;
  auth_sessions: AuthSessionsTable;
  login_attempts: LoginAttemptsTable;
}

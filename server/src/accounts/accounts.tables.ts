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

/** One failed sign-in, by normalised e-mail whether or not an account exists. */
export interface LoginFailuresTable {
  id: string;
  email_key: string;
  failed_at: string;
}

export interface LoginLockoutsTable {
  email_key: string;
  locked_until: string;
}

/** Tables of the accounts domain, added by migration 0002. */
export interface AccountsTables {
  refresh_tokens: RefreshTokensTable;
  one_time_codes: OneTimeCodesTable;
  login_failures: LoginFailuresTable;
  login_lockouts: LoginLockoutsTable;
}

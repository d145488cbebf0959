import type { TokenPair } from '@hearth/contracts';
import type { UserRecord } from '../users/index.js';

// The wire pair, declared once in the contracts.
export type { TokenPair } from '@hearth/contracts';

export interface IssueOptions {
  /** Lifetime of the access token (default 15 minutes; the OIDC redirect uses 60 s). */
  accessTtlSeconds?: number;
  /** A refresh token that can be spent once only, with no grace re-use (the OIDC redirect). */
  singleUse?: boolean;
  /** Where the sign-in came from, shown in Settings' list of sessions. */
  client?: ClientInfo;
}

/** The browser or app behind a session, as its requests show it. */
export interface ClientInfo {
  userAgent?: string;
  ip?: string;
}

/**
 * Sign-in sessions: issuing an access/refresh pair, rotating refresh tokens and revoking them.
 * Implemented by the accounts domain (RefreshSessions); user administration and identity-provider
 * sign-in receive it from app.ts.
 */
export interface SessionTokens {
  issue(user: UserRecord, options?: IssueOptions): Promise<TokenPair>;
  /**
   * Ends every session of the user at once: refresh tokens, and access tokens issued until now
   * (password change/reset, administrator's lock, role change, sign out everywhere).
   */
  revokeAllForUser(userId: string): Promise<void>;
  /**
   * Whether the user's session signed in, or confirmed the password again, within the last
   * 5 minutes (connecting an identity provider needs it).
   */
  recentlyAuthenticated(sessionId: string, userId: string): Promise<boolean>;
}

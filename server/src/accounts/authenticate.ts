import { API_TOKEN_PREFIX } from '@hearth/contracts';
import type { FastifyRequest } from 'fastify';
import { decodeJwt } from 'jose';
import { HttpError } from '../http/errors.js';
import { signInGuard } from '../http/route-guards.js';
import { fromOwnPage } from '../http/same-origin.js';
import { isDatabaseUnavailable } from '../storage/unavailable.js';
import type { Guards, Role, UserRecord, UsersRepository } from '../users/index.js';
import type { AccessTokens, VerifiedAccess } from './access-token.js';
import { MESSAGES } from './accounts.errors.js';
import type { LiveSessions } from './live-sessions.js';
import { RecentUsers } from './recent-users.js';
import type { SessionEvents } from './session-events.js';

export const AUTH_COOKIE = 'auth_token';

declare module 'fastify' {
  interface FastifyRequest {
    /** The session of a signed-in request, set with `caller` by the guards. */
    sessionId?: string;
  }
}

/** Whether a user may use a session at all (an administrator's lock ends every session). */
export const canUseSession = (user: UserRecord): boolean =>
  !(user.lockoutEnabled && user.lockoutReason === 'admin_lock');

/** Reads who is behind an access token (the device hub's stream uses it too). */
export interface TokenReader {
  userForToken(token: string | undefined): Promise<UserRecord | undefined>;
  /** Of tokens accepted earlier, those whose session has ended since (revoked, signed out). */
  sessionsEnded(tokens: string[]): Promise<Set<string>>;
  /** Called the moment sessions end on this instance; answers the unsubscribe. */
  onSessionsEnded(listener: () => void): () => void;
}

/** Whether a token was issued before the user's "tokens valid after" time (second precision). */
export const issuedBeforeCutoff = (user: UserRecord, issuedAt: number): boolean =>
  user.tokensValidAfter !== null && issuedAt < Math.floor(Date.parse(user.tokensValidAfter) / 1000);

const signedOut = () => new HttpError(401, 'Authentication required');

/**
 * An API token's call (docs/api.md#api-tokens, implemented by the tokens domain): the caller it acts
 * as, or the HttpError refusing it (401, 403 for a call tokens may not make, 429).
 */
export type ApiTokenGuard = (token: string, request: FastifyRequest) => Promise<UserRecord>;

/**
 * Resolves who is calling: the Bearer access token, else the `auth_token` cookie. The user is
 * read from the database on every call, so role changes, locks and deletions apply at once.
 */
export class Authenticator implements Guards, TokenReader {
  private readonly recent = new RecentUsers();
  private readonly publicOrigin: string;

  constructor(
    private readonly tokens: Pick<AccessTokens, 'verify'>,
    private readonly users: Pick<UsersRepository, 'findById'>,
    private readonly sessions: Pick<LiveSessions, 'isLive' | 'live'>,
    private readonly events: SessionEvents,
    /** PUBLIC_URL: a page of its origin may use the cookie for calls that change something. */
    publicUrl: string,
    /** Bearer tokens starting `hearth_` go here; none: they are no valid token. */
    private readonly apiTokens?: ApiTokenGuard,
  ) {
    this.publicOrigin = new URL(publicUrl).origin;
  }

  async userForToken(token: string | undefined): Promise<UserRecord | undefined> {
    return (await this.identify(token))?.user;
  }

  /**
   * The user and session behind an access token, if the token is valid, its session live, it was
   * issued after the user's "tokens valid after" time, and the user may use a session. While the
   * database is unreachable, the user as this instance last read it (RecentUsers).
   */
  async identify(
    token: string | undefined,
  ): Promise<{ user: UserRecord; claims: VerifiedAccess } | undefined> {
    if (!token) return undefined;
    const claims = await this.tokens.verify(token);
    if (!claims) return undefined;
    let user: UserRecord | undefined;
    try {
      user = await this.users.findById(claims.userId);
      this.recent.remember(claims.userId, user);
    } catch (error) {
      user = isDatabaseUnavailable(error) ? this.recent.recall(claims.userId) : undefined;
      if (!user) throw error;
    }
    if (!user || !canUseSession(user) || issuedBeforeCutoff(user, claims.issuedAt)) return undefined;
    if (!(await this.sessions.isLive(claims.sessionId, user.id))) return undefined;
    return { user, claims };
  }

  async sessionsEnded(tokens: string[]): Promise<Set<string>> {
    const sessionOf = new Map<string, string>();
    for (const token of tokens) {
      try {
        const sid = decodeJwt(token).sid;
        if (typeof sid === 'string') sessionOf.set(token, sid);
      } catch {
        // not a token of ours: it ended
      }
    }
    const live = await this.sessions.live([...sessionOf.values()]);
    return new Set(tokens.filter((token) => !live.has(sessionOf.get(token) ?? '')));
  }

  onSessionsEnded(listener: () => void): () => void {
    return this.events.onEnded(() => listener());
  }

  /** The session of a signed-in request (after a guard ran). */
  sessionOf(request: FastifyRequest): string | undefined {
    return request.sessionId;
  }

  /**
   * The Bearer token, else the cookie's. A cookie signs in a call that changes something only from
   * Hearth's own page (fromOwnPage, issue 32 item 11): otherwise 403, whatever the cookie holds.
   */
  tokenFromRequest(request: FastifyRequest): string | undefined {
    const header = request.headers.authorization;
    if (header) {
      const match = /^Bearer\s+(\S+)$/i.exec(header);
      return match?.[1];
    }
    const cookie = request.cookies?.[AUTH_COOKIE] || undefined;
    if (cookie && !fromOwnPage(request, this.publicOrigin)) throw new HttpError(403, MESSAGES.notFromHearth);
    return cookie;
  }

  /** The caller, if signed in (for calls that also work signed out). */
  async caller(request: FastifyRequest): Promise<UserRecord | undefined> {
    const token = this.tokenFromRequest(request);
    if (this.apiTokens && token?.startsWith(API_TOKEN_PREFIX)) return this.apiTokens(token, request);
    const found = await this.identify(token);
    if (found) request.sessionId = found.claims.sessionId;
    return found?.user;
  }

  user = signInGuard(async (request: FastifyRequest): Promise<void> => {
    const user = await this.caller(request);
    if (!user) throw signedOut();
    request.caller = user;
  });

  role = (...roles: Role[]) =>
    signInGuard(async (request: FastifyRequest): Promise<void> => {
      const user = await this.caller(request);
      if (!user) throw signedOut();
      if (!roles.includes(user.role)) throw new HttpError(403, 'Forbidden');
      request.caller = user;
    });
}

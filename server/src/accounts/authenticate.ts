import type { FastifyRequest } from 'fastify';
import { HttpError } from '../http/errors.js';
import { isDatabaseUnavailable } from '../storage/unavailable.js';
import type { Guards, Role, UserRecord, UsersRepository } from '../users/index.js';
import type { AccessTokens } from './access-token.js';
import { RecentUsers } from './recent-users.js';

export const AUTH_COOKIE = 'auth_token';

/** Whether a user may use a session at all (an administrator's lock ends every session). */
export const canUseSession = (user: UserRecord): boolean =>
  !(user.lockoutEnabled && user.lockoutReason === 'admin_lock');

/** Reads who is behind an access token (the device hub's stream uses it too). */
export interface TokenReader {
  userForToken(token: string | undefined): Promise<UserRecord | undefined>;
}

const signedOut = () => new HttpError(401, 'Authentication required');

/**
 * Resolves who is calling: the Bearer access token, else the `auth_token` cookie. The user is
 * read from the database on every call, so role changes, locks and deletions apply at once.
 */
export class Authenticator implements Guards, TokenReader {
  private readonly recent = new RecentUsers();

  constructor(
    private readonly tokens: Pick<AccessTokens, 'verify'>,
    private readonly users: Pick<UsersRepository, 'findById'>,
  ) {}

  /**
   * The user behind an access token, if the token is valid and the user may use a session.
   * While the database is unreachable, the user as this instance last read it (RecentUsers).
   */
  async userForToken(token: string | undefined): Promise<UserRecord | undefined> {
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
    return user && canUseSession(user) ? user : undefined;
  }

  tokenFromRequest(request: FastifyRequest): string | undefined {
    const header = request.headers.authorization;
    if (header) {
      const match = /^Bearer\s+(\S+)$/i.exec(header);
      return match?.[1];
    }
    return request.cookies?.[AUTH_COOKIE] || undefined;
  }

  /** The caller, if signed in (for calls that also work signed out). */
  async caller(request: FastifyRequest): Promise<UserRecord | undefined> {
    return this.userForToken(this.tokenFromRequest(request));
  }

  user = async (request: FastifyRequest): Promise<void> => {
    const user = await this.caller(request);
    if (!user) throw signedOut();
    request.caller = user;
  };

  role =
    (...roles: Role[]) =>
    async (request: FastifyRequest): Promise<void> => {
      const user = await this.caller(request);
      if (!user) throw signedOut();
      if (!roles.includes(user.role)) throw new HttpError(403, 'Forbidden');
      request.caller = user;
    };
}

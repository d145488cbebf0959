import type { FastifyReply, FastifyRequest } from 'fastify';
import { isDatabaseUnavailable } from '../storage/unavailable.js';
import type { Role, UserRecord, UsersRepository } from '../users/users.repository.js';
import type { AccessTokens } from './access-token.js';
import { RecentUsers } from './recent-users.js';

export const AUTH_COOKIE = 'auth_token';

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in caller, set by the requireUser/requireRole pre-handlers. */
    caller?: UserRecord;
  }
}

/** Whether a user may use a session at all (an administrator's lock ends every session). */
export const canUseSession = (user: UserRecord): boolean =>
  !(user.lockoutEnabled && user.lockoutReason === 'admin_lock');

/**
 * Resolves who is calling: the Bearer access token, else the `auth_token` cookie. The user is
 * read from the database on every call, so role changes, locks and deletions apply at once.
 */
export class Authenticator {
  private readonly recent = new RecentUsers();

  constructor(
    private readonly tokens: AccessTokens,
    private readonly users: UsersRepository,
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

  async caller(request: FastifyRequest): Promise<UserRecord | undefined> {
    return this.userForToken(this.tokenFromRequest(request));
  }

  /** Pre-handler: 401 {"error":"Authentication required"} unless signed in. */
  requireUser = async (request: FastifyRequest, reply: FastifyReply) => {
    const user = await this.caller(request);
    if (!user) return reply.code(401).send({ error: 'Authentication required' });
    request.caller = user;
  };

  /** Pre-handler: 401 when signed out, 403 when the caller's role is not among `roles`. */
  requireRole =
    (...roles: Role[]) =>
    async (request: FastifyRequest, reply: FastifyReply) => {
      const user = await this.caller(request);
      if (!user) return reply.code(401).send({ error: 'Authentication required' });
      if (!roles.includes(user.role)) return reply.code(403).send({ error: 'Forbidden' });
      request.caller = user;
    };
}

import { createHash, randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { HttpError } from '../http/errors.js';
import { nowIso } from '../storage/columns.js';
import type { Database } from '../storage/schema.js';
import { type UserRecord, UsersRepository } from '../users/index.js';
import { ACCESS_TOKEN_TTL_SECONDS, type AccessStamp, AccessTokens } from './access-token.js';
import { MESSAGES } from './accounts.errors.js';
import { type AuthSessionRow, AuthSessionsRepository } from './auth-sessions.repository.js';
import { canUseSession } from './authenticate.js';
import { type RefreshTokenRow, RefreshTokensRepository } from './refresh-tokens.repository.js';
import type { SessionEvents } from './session-events.js';
import type { ClientInfo, IssueOptions, SessionTokens, TokenPair } from './session-tokens.js';

const DAY_MS = 24 * 60 * 60 * 1000;
export const REFRESH_ABSOLUTE_MS = 30 * DAY_MS;
export const REFRESH_IDLE_MS = 7 * DAY_MS;
/** Two tabs refreshing at once: the second presentation of a parent within this window is no reuse. */
export const REFRESH_GRACE_MS = 5000;
/** How recent a sign-in (or confirmed password) must be to connect an identity provider. */
export const RECENT_SIGN_IN_MS = 5 * 60_000;

const hashToken = (token: string) => createHash('sha256').update(token).digest('base64url');

/**
 * Refresh-token sessions stored in the database. Tokens are random, stored as SHA-256, and
 * rotate on every use; a rotated token presented again revokes its whole family, except within
 * the grace window, where it yields the very same new pair. The child token is derived from the
 * parent with the server key, so the pair can be rebuilt without storing any token.
 */
export class RefreshSessions implements SessionTokens {
  private readonly tokens: RefreshTokensRepository;
  private readonly sessions: AuthSessionsRepository;
  private readonly users: UsersRepository;

  constructor(
    readonly db: Kysely<Database>,
    private readonly accessTokens: AccessTokens,
    private readonly events: SessionEvents,
  ) {
    this.tokens = new RefreshTokensRepository(db);
    this.sessions = new AuthSessionsRepository(db);
    this.users = new UsersRepository(db);
  }

  async issue(user: UserRecord, options: IssueOptions = {}): Promise<TokenPair> {
    const token = randomBytes(32).toString('base64url');
    const now = Date.now();
    const stamp = AccessTokens.newStamp(options.accessTtlSeconds ?? ACCESS_TOKEN_TTL_SECONDS);
    const familyExpires = nowIso(now + REFRESH_ABSOLUTE_MS);
    const familyId = crypto.randomUUID();
    await this.db.transaction().execute(async (trx) => {
      await this.sessions.insert(
        {
          id: familyId,
          user_id: user.id,
          user_agent: clip(options.client?.userAgent),
          ip: clip(options.client?.ip),
          created_at: nowIso(now),
          last_used_at: nowIso(now),
          expires_at: familyExpires,
          // Every session starts with a sign-in: a password, a second factor or a provider.
          authenticated_at: nowIso(now),
        },
        trx,
      );
      await this.tokens.insert(
        {
          id: crypto.randomUUID(),
          family_id: familyId,
          user_id: user.id,
          token_hash: hashToken(token),
          single_use: options.singleUse ? 1 : 0,
          ...stampColumns(stamp),
          created_at: nowIso(now),
          expires_at: nowIso(now + REFRESH_IDLE_MS),
          family_expires_at: familyExpires,
        },
        trx,
      );
    });
    return {
      access_token: await this.accessTokens.signStamped(claims(user, familyId), stamp),
      refresh_token: token,
    };
  }

  /** Spends a refresh token for a new pair; 401 for anything unknown, expired, revoked or reused. */
  async rotate(token: unknown, client: ClientInfo = {}): Promise<{ user: UserRecord; pair: TokenPair }> {
    if (typeof token !== 'string' || token.length === 0 || token.length > 200) throw invalid();
    const row = await this.tokens.findByHash(hashToken(token));
    if (!row || row.revoked_at) throw invalid();
    const user = await this.users.findById(row.user_id);
    if (!user || !canUseSession(user)) {
      await this.revokeFamily(row.family_id);
      throw invalid();
    }
    const now = Date.now();
    if (Date.parse(row.expires_at) <= now) throw invalid();

    const childToken = this.accessTokens.mac('refresh-child', token);
    if (!row.rotated_at) {
      const stamp = AccessTokens.newStamp();
      const child = {
        id: crypto.randomUUID(),
        family_id: row.family_id,
        user_id: row.user_id,
        token_hash: hashToken(childToken),
        single_use: 0,
        ...stampColumns(stamp),
        created_at: nowIso(now),
        expires_at: nowIso(Math.min(now + REFRESH_IDLE_MS, Date.parse(row.family_expires_at))),
        family_expires_at: row.family_expires_at,
      };
      const won = await this.db.transaction().execute(async (trx) => {
        if (!(await this.tokens.markRotated(row.id, child.id, nowIso(now), trx))) return false;
        await this.tokens.insert(child, trx);
        return true;
      });
      if (won) {
        await this.sessions.touch(row.family_id, nowIso(now), {
          userAgent: clip(client.userAgent) ?? undefined,
          ip: clip(client.ip) ?? undefined,
        });
        return {
          user,
          pair: {
            access_token: await this.accessTokens.signStamped(claims(user, row.family_id), stamp),
            refresh_token: childToken,
          },
        };
      }
    }
    // Already rotated: the same pair again within the grace window, else reuse.
    const current = (await this.tokens.findById(row.id)) ?? row;
    const child = current.replaced_by ? await this.tokens.findById(current.replaced_by) : undefined;
    const inGrace =
      !current.single_use &&
      current.rotated_at !== null &&
      now - Date.parse(current.rotated_at) <= REFRESH_GRACE_MS &&
      child !== undefined &&
      !child.revoked_at &&
      !child.rotated_at &&
      child.token_hash === hashToken(childToken);
    if (!child || !inGrace) {
      await this.revokeFamily(row.family_id);
      throw invalid();
    }
    return {
      user,
      pair: {
        access_token: await this.accessTokens.signStamped(claims(user, row.family_id), rowStamp(child)),
        refresh_token: childToken,
      },
    };
  }

  /** Logout: revokes the family of the token, if it is one of ours. */
  async revokeFamilyOf(token: unknown): Promise<void> {
    if (typeof token !== 'string' || token.length === 0 || token.length > 200) return;
    const row = await this.tokens.findByHash(hashToken(token));
    if (row) await this.revokeFamily(row.family_id);
  }

  /** Ends every session of the user, and every access token issued until now. */
  async revokeAllForUser(userId: string): Promise<void> {
    await this.sessions.bumpTokensValidAfter(userId, nowIso());
    await this.tokens.revokeAllForUser(userId);
    const ended = await this.sessions.revokeForUser(userId);
    this.events.ended({ userId });
    if (ended.length > 0) this.events.ended({ sessionIds: ended });
  }

  /**
   * Whether the user's live session proved who is behind it within RECENT_SIGN_IN_MS: signed in,
   * or the password confirmed again, that recently (connecting an identity provider needs it).
   */
  async recentlyAuthenticated(sessionId: string, userId: string, now = Date.now()): Promise<boolean> {
    const at = await this.sessions.authenticatedAt(sessionId, userId);
    return at !== undefined && now - at <= RECENT_SIGN_IN_MS;
  }

  /** The session proved who is behind it again (the password, confirmed). */
  markAuthenticated(sessionId: string): Promise<void> {
    return this.sessions.markAuthenticated(sessionId, nowIso());
  }

  /** "Sign out of all other sessions": every session of the user but `keep`. */
  async revokeOthers(userId: string, keep: string): Promise<void> {
    await this.tokens.revokeAllForUser(userId, keep);
    const ended = await this.sessions.revokeForUser(userId, keep);
    if (ended.length > 0) this.events.ended({ sessionIds: ended });
  }

  /** One session of the user; false when it is not theirs or already ended. */
  async revokeSession(userId: string, sessionId: string): Promise<boolean> {
    const session = await this.sessions.find(sessionId);
    if (!session || session.user_id !== userId || session.revoked_at) return false;
    await this.revokeFamily(sessionId);
    return true;
  }

  /** The user's live sessions, most recently used first. */
  listActive(userId: string): Promise<AuthSessionRow[]> {
    return this.sessions.listActive(userId);
  }

  private async revokeFamily(familyId: string): Promise<void> {
    await this.tokens.revokeFamily(familyId);
    await this.sessions.revoke(familyId);
    this.events.ended({ sessionIds: [familyId] });
  }
}

/** Stored client details are for display: bounded, never trusted. */
const clip = (value: string | undefined): string | null => (value ? value.slice(0, 300) : null);

const invalid = () => new HttpError(401, MESSAGES.invalidRefreshToken);
const claims = (user: UserRecord, sessionId: string) => ({ userId: user.id, role: user.role, sessionId });
const stampColumns = (stamp: AccessStamp) => ({
  access_jti: stamp.jti,
  access_issued_at: stamp.issuedAt,
  access_ttl: stamp.ttlSeconds,
});
const rowStamp = (row: RefreshTokenRow): AccessStamp => ({
  jti: row.access_jti,
  issuedAt: Number(row.access_issued_at),
  ttlSeconds: Number(row.access_ttl),
});

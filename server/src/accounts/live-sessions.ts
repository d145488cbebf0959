import { isDatabaseUnavailable } from '../storage/unavailable.js';
import type { AuthSessionsRepository } from './auth-sessions.repository.js';
import { RECENT_USER_TTL_MS } from './recent-users.js';
import type { SessionEvents } from './session-events.js';

/**
 * How long a session read as live is taken on trust by this instance. A session revoked here is
 * known at once (SessionEvents); one revoked by another instance is seen within this time.
 */
export const LIVE_SESSION_TTL_MS = 1000;
const MAX_ENTRIES = 20_000;

/**
 * Whether the session behind an access token is still live, read from the database at most once
 * a second per session. Revoked sessions never come back, so that answer is kept. While the
 * database is unreachable, a session last read as live within RECENT_USER_TTL_MS still counts,
 * like the users of RecentUsers.
 */
export class LiveSessions {
  private readonly entries = new Map<string, { userId: string; live: boolean; at: number }>();

  constructor(
    private readonly repository: Pick<AuthSessionsRepository, 'find' | 'live'>,
    events: SessionEvents,
    private readonly now: () => number = Date.now,
  ) {
    events.onEnded((what) => {
      if ('sessionIds' in what) for (const id of what.sessionIds) this.markEnded(id);
    });
  }

  async isLive(sessionId: string, userId: string): Promise<boolean> {
    const entry = this.entries.get(sessionId);
    const now = this.now();
    if (entry && (!entry.live || now - entry.at < LIVE_SESSION_TTL_MS)) {
      return entry.live && entry.userId === userId;
    }
    let row: Awaited<ReturnType<AuthSessionsRepository['find']>>;
    try {
      row = await this.repository.find(sessionId);
    } catch (error) {
      if (isDatabaseUnavailable(error) && entry?.live && now - entry.at <= RECENT_USER_TTL_MS) {
        return entry.userId === userId;
      }
      throw error;
    }
    if (!row) {
      this.entries.delete(sessionId);
      return false;
    }
    this.remember(sessionId, { userId: row.user_id, live: row.revoked_at === null, at: now });
    return row.revoked_at === null && row.user_id === userId;
  }

  /** Of these sessions, the ones that are live now (read from the database, no cache). */
  async live(sessionIds: string[]): Promise<Set<string>> {
    return this.repository.live([...new Set(sessionIds)]);
  }

  private markEnded(sessionId: string) {
    const entry = this.entries.get(sessionId);
    this.remember(sessionId, { userId: entry?.userId ?? '', live: false, at: this.now() });
  }

  private remember(sessionId: string, entry: { userId: string; live: boolean; at: number }) {
    this.entries.delete(sessionId);
    if (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value as string);
    this.entries.set(sessionId, entry);
  }
}

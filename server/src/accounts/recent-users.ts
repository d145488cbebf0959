import type { UserRecord } from '../users/index.js';

/** How long a user read from the database may stand in for it while the database is down. */
export const RECENT_USER_TTL_MS = 10 * 60_000;
const MAX_USERS = 10_000;

/**
 * The users this instance read recently, so that a signed-in user whose access token is still
 * valid keeps working while the database is unreachable (the device list and commands come from
 * memory and the bus). Never used while the database answers: every call still reads the user,
 * so role changes and locks apply at once; an outage freezes what the database said last.
 */
export class RecentUsers {
  private readonly users = new Map<string, { user: UserRecord; at: number }>();

  constructor(private readonly now: () => number = Date.now) {}

  remember(id: string, user: UserRecord | undefined) {
    if (!user) {
      this.users.delete(id);
      return;
    }
    // Called on every signed-in request: a user already here is updated in place.
    const entry = this.users.get(id);
    if (entry) {
      entry.user = user;
      entry.at = this.now();
      return;
    }
    if (this.users.size >= MAX_USERS) this.users.delete(this.users.keys().next().value as string);
    this.users.set(id, { user, at: this.now() });
  }

  /** The user as last read, if that was within RECENT_USER_TTL_MS. */
  recall(id: string): UserRecord | undefined {
    const entry = this.users.get(id);
    return entry && this.now() - entry.at <= RECENT_USER_TTL_MS ? entry.user : undefined;
  }
}

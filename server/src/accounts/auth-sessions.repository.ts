import type { Kysely, Selectable } from 'kysely';
import { nowIso } from '../storage/columns.js';
import type { Database } from '../storage/schema.js';
import type { AuthSessionsTable } from './accounts.tables.js';

export type AuthSessionRow = Selectable<AuthSessionsTable>;

/** Sign-in sessions (one per refresh-token family), by id and by user. */
export class AuthSessionsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(row: Omit<AuthSessionRow, 'revoked_at'>, db: Kysely<Database> = this.db): Promise<void> {
    await db.insertInto('auth_sessions').values(row).execute();
  }

  find(id: string): Promise<Pick<AuthSessionRow, 'user_id' | 'revoked_at'> | undefined> {
    return this.db
      .selectFrom('auth_sessions')
      .select(['user_id', 'revoked_at'])
      .where('id', '=', id)
      .executeTakeFirst();
  }

  /** When the user's live session last proved who is behind it (epoch ms); undefined if never. */
  async authenticatedAt(id: string, userId: string): Promise<number | undefined> {
    const row = await this.db
      .selectFrom('auth_sessions')
      .select('authenticated_at')
      .where('id', '=', id)
      .where('user_id', '=', userId)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    return row?.authenticated_at ? Date.parse(row.authenticated_at) : undefined;
  }

  async markAuthenticated(id: string, at: string): Promise<void> {
    await this.db.updateTable('auth_sessions').set({ authenticated_at: at }).where('id', '=', id).execute();
  }

  /** Which of these sessions are still live (not revoked). */
  async live(ids: string[]): Promise<Set<string>> {
    const live = new Set<string>();
    for (let i = 0; i < ids.length; i += 500) {
      const rows = await this.db
        .selectFrom('auth_sessions')
        .select('id')
        .where('id', 'in', ids.slice(i, i + 500))
        .where('revoked_at', 'is', null)
        .execute();
      for (const row of rows) live.add(row.id);
    }
    return live;
  }

  /** The user's sessions that are neither revoked nor past their absolute end, newest use first. */
  listActive(userId: string, now = Date.now()): Promise<AuthSessionRow[]> {
    return this.db
      .selectFrom('auth_sessions')
      .selectAll()
      .where('user_id', '=', userId)
      .where('revoked_at', 'is', null)
      .where('expires_at', '>', nowIso(now))
      .orderBy('last_used_at', 'desc')
      .execute();
  }

  async touch(id: string, at: string, client: { userAgent?: string; ip?: string }): Promise<void> {
    await this.db
      .updateTable('auth_sessions')
      .set({
        last_used_at: at,
        ...(client.userAgent !== undefined ? { user_agent: client.userAgent } : {}),
        ...(client.ip !== undefined ? { ip: client.ip } : {}),
      })
      .where('id', '=', id)
      .execute();
  }

  /** Revokes the user's live sessions (all, or all but `keep`); answers the ids it revoked. */
  async revokeForUser(userId: string, keep?: string): Promise<string[]> {
    let query = this.db
      .updateTable('auth_sessions')
      .set({ revoked_at: nowIso() })
      .where('user_id', '=', userId)
      .where('revoked_at', 'is', null);
    if (keep) query = query.where('id', '!=', keep);
    const rows = await query.returning('id').execute();
    return rows.map((row) => row.id);
  }

  async revoke(id: string): Promise<void> {
    await this.db
      .updateTable('auth_sessions')
      .set({ revoked_at: nowIso() })
      .where('id', '=', id)
      .where('revoked_at', 'is', null)
      .execute();
  }

  /** Access tokens of the user issued before now are refused from here on. */
  async bumpTokensValidAfter(userId: string, at: string): Promise<void> {
    await this.db.updateTable('users').set({ tokens_valid_after: at }).where('id', '=', userId).execute();
  }
}

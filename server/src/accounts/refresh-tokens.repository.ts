import type { Kysely, Selectable } from 'kysely';
import { nowIso } from '../storage/columns.js';
import type { Database } from '../storage/schema.js';
import type { RefreshTokensTable } from './accounts.tables.js';

export type RefreshTokenRow = Selectable<RefreshTokensTable>;
export type NewRefreshToken = Omit<RefreshTokenRow, 'rotated_at' | 'replaced_by' | 'revoked_at'>;

export class RefreshTokensRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(row: NewRefreshToken, db: Kysely<Database> = this.db): Promise<void> {
    await db.insertInto('refresh_tokens').values(row).execute();
  }

  findByHash(tokenHash: string): Promise<RefreshTokenRow | undefined> {
    return this.db
      .selectFrom('refresh_tokens')
      .selectAll()
      .where('token_hash', '=', tokenHash)
      .executeTakeFirst();
  }

  findById(id: string): Promise<RefreshTokenRow | undefined> {
    return this.db.selectFrom('refresh_tokens').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** Marks a live token rotated; false when another request got there first. */
  async markRotated(
    id: string,
    childId: string,
    at: string,
    db: Kysely<Database> = this.db,
  ): Promise<boolean> {
    const result = await db
      .updateTable('refresh_tokens')
      .set({ rotated_at: at, replaced_by: childId })
      .where('id', '=', id)
      .where('rotated_at', 'is', null)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  async revokeFamily(familyId: string): Promise<void> {
    await this.db
      .updateTable('refresh_tokens')
      .set({ revoked_at: nowIso() })
      .where('family_id', '=', familyId)
      .where('revoked_at', 'is', null)
      .execute();
  }

  /** Revokes every live token of the user (all families, or all but `keepFamily`). */
  async revokeAllForUser(userId: string, keepFamily?: string): Promise<void> {
    let query = this.db
      .updateTable('refresh_tokens')
      .set({ revoked_at: nowIso() })
      .where('user_id', '=', userId)
      .where('revoked_at', 'is', null);
    if (keepFamily) query = query.where('family_id', '!=', keepFamily);
    await query.execute();
  }
}

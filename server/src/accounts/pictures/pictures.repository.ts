import type { Kysely } from 'kysely';
import { nowIso } from '../../storage/columns.js';
import type { Database } from '../../storage/schema.js';

export class PicturesRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** Points the user at a new picture; answers the file it replaced (undefined: no such user). */
  async replace(userId: string, file: string): Promise<{ previous: string | null } | undefined> {
    return this.db.transaction().execute(async (trx) => {
      const row = await trx
        .selectFrom('users')
        .select('profile_picture')
        .where('id', '=', userId)
        .executeTakeFirst();
      if (!row) return undefined;
      await trx
        .updateTable('users')
        .set({ profile_picture: file, updated_at: nowIso() })
        .where('id', '=', userId)
        .execute();
      return { previous: row.profile_picture };
    });
  }
}

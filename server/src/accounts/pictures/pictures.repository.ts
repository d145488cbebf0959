import type { Kysely } from 'kysely';
import { nowIso } from '../../storage/columns.js';
import type { Database } from '../../storage/schema.js';
import type { StoredPicture } from './picture-store.js';

/** Profile pictures in the database: any instance on it serves any picture. */
export class PicturesRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /**
   * Stores the picture and points the user at it, deleting the one it replaced, in one
   * transaction; false when there is no such user (nothing is stored).
   */
  async replace(userId: string, picture: StoredPicture): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const row = await trx.selectFrom('users').select('id').where('id', '=', userId).executeTakeFirst();
      if (!row) return false;
      const now = nowIso();
      await trx
        .insertInto('profile_pictures')
        .values({
          name: picture.name,
          user_id: userId,
          content_type: picture.contentType,
          data: picture.bytes,
          created_at: now,
        })
        .execute();
      await trx
        .updateTable('users')
        .set({ profile_picture: picture.name, updated_at: now })
        .where('id', '=', userId)
        .execute();
      await trx
        .deleteFrom('profile_pictures')
        .where('user_id', '=', userId)
        .where('name', '!=', picture.name)
        .execute();
      return true;
    });
  }

  async read(name: string): Promise<StoredPicture | undefined> {
    const row = await this.db
      .selectFrom('profile_pictures')
      .select(['name', 'content_type', 'data'])
      .where('name', '=', name)
      .executeTakeFirst();
    return row && { name: row.name, contentType: row.content_type, bytes: Buffer.from(row.data) };
  }

  /**
   * Moves a picture file of an earlier version in, for the user whose picture it still is;
   * answers whether it was stored (false: nobody's picture any more, or already in).
   */
  async importLegacy(picture: StoredPicture): Promise<boolean> {
    const owner = await this.db
      .selectFrom('users')
      .select('id')
      .where('profile_picture', '=', picture.name)
      .executeTakeFirst();
    if (!owner) return false;
    const inserted = await this.db
      .insertInto('profile_pictures')
      .values({
        name: picture.name,
        user_id: owner.id,
        content_type: picture.contentType,
        data: picture.bytes,
        created_at: nowIso(),
      })
      .onConflict((conflict) => conflict.column('name').doNothing())
      .executeTakeFirst();
    return Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0;
  }
}

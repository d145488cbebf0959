import type { Preferences } from '@hearth/contracts';
import type { Kysely } from 'kysely';
import { fromBool, nowIso, toBool } from '../storage/columns.js';
import type { Database } from '../storage/schema.js';

/** What a person who never changed anything has. */
export const DEFAULT_PREFERENCES: Preferences = { hide_examples: false };

/** docs/api.md#preferences: each person's row, written on their first change. */
export class PreferencesRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async get(userId: string): Promise<Preferences> {
    const row = await this.db
      .selectFrom('user_preferences')
      .select('hide_examples')
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return row ? { hide_examples: toBool(row.hide_examples) } : { ...DEFAULT_PREFERENCES };
  }

  /** Sets the given fields (one upsert, so two browsers changing at once both land) and answers them all. */
  async update(userId: string, change: Partial<Preferences>): Promise<Preferences> {
    const set = {
      ...(change.hide_examples === undefined ? {} : { hide_examples: fromBool(change.hide_examples) }),
      updated_at: nowIso(),
    };
    await this.db
      .insertInto('user_preferences')
      .values({ user_id: userId, hide_examples: fromBool(DEFAULT_PREFERENCES.hide_examples), ...set })
      .onConflict((conflict) => conflict.column('user_id').doUpdateSet(set))
      .execute();
    return this.get(userId);
  }
}

import type { Kysely, Selectable } from 'kysely';
import type { Database } from '../storage/schema.js';
import type { CodePurpose, OneTimeCodesTable } from './accounts.tables.js';

/** Tries after which a code is burned (a correct code is refused from then on). */
export const CODE_ATTEMPT_LIMIT = 5;

export type CodeRow = Selectable<OneTimeCodesTable>;

export class CodesRepository {
  constructor(private readonly db: Kysely<Database>) {}

  latest(userId: string, purpose: CodePurpose): Promise<CodeRow | undefined> {
    return this.db
      .selectFrom('one_time_codes')
      .selectAll()
      .where('user_id', '=', userId)
      .where('purpose', '=', purpose)
      .orderBy('created_at', 'desc')
      .limit(1)
      .executeTakeFirst();
  }

  async countSince(userId: string, purpose: CodePurpose, since: string): Promise<number> {
    const { n } = await this.db
      .selectFrom('one_time_codes')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('user_id', '=', userId)
      .where('purpose', '=', purpose)
      .where('created_at', '>', since)
      .executeTakeFirstOrThrow();
    return Number(n);
  }

  /** Burns every open code of this kind and stores the new one. */
  async replace(row: Omit<CodeRow, 'attempts' | 'used_at' | 'burned_at'>): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx
        .updateTable('one_time_codes')
        .set({ burned_at: row.created_at })
        .where('user_id', '=', row.user_id)
        .where('purpose', '=', row.purpose)
        .where('used_at', 'is', null)
        .where('burned_at', 'is', null)
        .execute();
      await trx.insertInto('one_time_codes').values(row).execute();
    });
  }

  /** Spends an open code; false if someone else spent or burned it first. */
  async markUsed(id: string, at: string): Promise<boolean> {
    const result = await this.db
      .updateTable('one_time_codes')
      .set({ used_at: at })
      .where('id', '=', id)
      .where('used_at', 'is', null)
      .where('burned_at', 'is', null)
      .where('attempts', '<', CODE_ATTEMPT_LIMIT)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** Counts a wrong try; returns the tries so far. */
  async addAttempt(id: string): Promise<number> {
    await this.db
      .updateTable('one_time_codes')
      .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
      .where('id', '=', id)
      .execute();
    const row = await this.db
      .selectFrom('one_time_codes')
      .select('attempts')
      .where('id', '=', id)
      .executeTakeFirst();
    return Number(row?.attempts ?? 0);
  }

  async burn(id: string, at: string): Promise<void> {
    await this.db
      .updateTable('one_time_codes')
      .set({ burned_at: at })
      .where('id', '=', id)
      .where('burned_at', 'is', null)
      .execute();
  }

  /** Ends a pending sign-in challenge without a code (e.g. the password changed). */
  async burnAll(userId: string, at: string): Promise<void> {
    await this.db
      .updateTable('one_time_codes')
      .set({ burned_at: at })
      .where('user_id', '=', userId)
      .where('used_at', 'is', null)
      .where('burned_at', 'is', null)
      .execute();
  }
}

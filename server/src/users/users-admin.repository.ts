import { type Kysely, sql, type Transaction } from 'kysely';
import { fromBool, nowIso } from '../storage/columns.js';
import type { Dialect } from '../storage/database.js';
import type { Database } from '../storage/schema.js';
import { type Role, toRecord, type UserRecord } from './users.repository.js';

export interface UserSearch {
  q: string | undefined;
  page: number;
  pageSize: number;
}

/** Decides, inside the transaction, whether a change may go ahead: undefined or the 403 message. */
export type ChangeCheck = (target: UserRecord, otherAdmins: number) => string | undefined;

export type GuardedResult = { user: UserRecord } | { denial: string } | { notFound: true };

/** `%` and `_` in the user's text match themselves, not any character. */
export const likePattern = (text: string): string => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** Searching, paging and changing users on behalf of residents and admins. */
export class UsersAdminRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: Dialect,
  ) {}

  async search({ q, page, pageSize }: UserSearch): Promise<{ users: UserRecord[]; total: number }> {
    let query = this.db.selectFrom('users');
    if (q) {
      const pattern = likePattern(q);
      // lower() on both sides: SQLite and PostgreSQL then agree on what "case-insensitive" means.
      query = query.where((eb) =>
        eb.or(
          (['first_name', 'last_name', 'user_name', 'email'] as const).map(
            (column) => sql<boolean>`lower(${sql.ref(column)}) like lower(${pattern}) escape '\\'`,
          ),
        ),
      );
    }
    const { n } = await query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    const rows = await query
      .selectAll()
      .orderBy('created_at')
      .orderBy('id')
      .limit(pageSize)
      .offset((page - 1) * pageSize)
      .execute();
    return { users: rows.map(toRecord), total: Number(n) };
  }

  async updateNames(id: string, firstName: string, lastName: string): Promise<UserRecord | undefined> {
    await this.db
      .updateTable('users')
      .set({ first_name: firstName, last_name: lastName, updated_at: nowIso() })
      .where('id', '=', id)
      .execute();
    const row = await this.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? toRecord(row) : undefined;
  }

  /**
   * Changes the role if `check` allows it, with the admin count read under a lock (no race), then
   * runs `also` in the same transaction (the access rules the change carries), given the user as it was.
   */
  setRole(
    id: string,
    role: Role,
    check: ChangeCheck,
    also?: (trx: Transaction<Database>, before: UserRecord) => Promise<void>,
  ): Promise<GuardedResult> {
    return this.guarded(id, check, false, async (trx, before) => {
      await trx.updateTable('users').set({ role, updated_at: nowIso() }).where('id', '=', id).execute();
      await also?.(trx, before);
    });
  }

  /** Sets or clears the administrator's lock; `check` sees the admins that aren't admin-locked. */
  setAdminLock(id: string, lock: boolean, check: ChangeCheck): Promise<GuardedResult> {
    const change = lock
      ? { lockout_enabled: fromBool(true), lockout_reason: 'admin_lock', lockout_until: null }
      : { lockout_enabled: fromBool(false), lockout_reason: null, lockout_until: null };
    return this.guarded(id, check, true, (trx) =>
      trx
        .updateTable('users')
        .set({ ...change, updated_at: nowIso() })
        .where('id', '=', id)
        .execute(),
    );
  }

  private guarded(
    id: string,
    check: ChangeCheck,
    activeAdminsOnly: boolean,
    change: (trx: Transaction<Database>, target: UserRecord) => Promise<unknown>,
  ): Promise<GuardedResult> {
    return this.db.transaction().execute(async (trx) => {
      // On PostgreSQL, locking every admin row serialises concurrent demotions and locks, so two
      // admins can't demote each other at once. SQLite runs one write transaction at a time anyway.
      const forUpdate = this.dialect === 'postgres';
      let admins = trx
        .selectFrom('users')
        .select(['id', 'lockout_enabled', 'lockout_reason'])
        .where('role', '=', 'admin');
      if (forUpdate) admins = admins.forUpdate();
      const adminRows = await admins.execute();
      let targetQuery = trx.selectFrom('users').selectAll().where('id', '=', id);
      if (forUpdate) targetQuery = targetQuery.forUpdate();
      const row = await targetQuery.executeTakeFirst();
      if (!row) return { notFound: true as const };
      const target = toRecord(row);
      const otherAdmins = adminRows.filter(
        (admin) =>
          admin.id !== id &&
          !(activeAdminsOnly && admin.lockout_enabled && admin.lockout_reason === 'admin_lock'),
      ).length;
      const denial = check(target, otherAdmins);
      if (denial) return { denial };
      await change(trx, target);
      const updated = await trx
        .selectFrom('users')
        .selectAll()
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      return { user: toRecord(updated) };
    });
  }
}

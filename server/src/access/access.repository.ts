import type { AccessLevel } from '@hearth/contracts';
import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../storage/database.js';
import type { Database } from '../storage/schema.js';
import type { RuleSet } from './access.policy.js';

/** How many ids one `in (…)` list holds (SQLite's bound-parameter limit is 32 766; PostgreSQL's 65 535). */
const CHUNK = 1000;

const chunks = <T>(items: readonly T[]): T[][] => {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += CHUNK) out.push(items.slice(i, i + CHUNK));
  return out;
};

/** The access rules' storage (docs/access.md#storage), one query set for SQLite and PostgreSQL. */
export class AccessRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: Dialect,
  ) {}

  async rules(userId: string): Promise<RuleSet> {
    const [rooms, devices] = await Promise.all([
      this.db
        .selectFrom('access_room_rules')
        .select(['room_id', 'level'])
        .where('user_id', '=', userId)
        .execute(),
      this.db
        .selectFrom('access_device_rules')
        .select(['device_id', 'level'])
        .where('user_id', '=', userId)
        .execute(),
    ]);
    return {
      rooms: new Map(rooms.map((row) => [row.room_id, row.level as AccessLevel])),
      devices: new Map(devices.map((row) => [row.device_id, row.level as AccessLevel])),
    };
  }

  /** Of these room ids, those that are no room. */
  async unknownRooms(ids: readonly string[]): Promise<string[]> {
    const known = new Set<string>();
    for (const part of chunks(ids)) {
      const rows = await this.db.selectFrom('rooms').select('id').where('id', 'in', part).execute();
      for (const row of rows) known.add(row.id);
    }
    return ids.filter((id) => !known.has(id));
  }

  /** Of these device ids, those the registry does not hold (a removed device keeps its id and rules until purged). */
  async unknownDevices(ids: readonly string[]): Promise<string[]> {
    const known = new Set<string>();
    for (const part of chunks(ids)) {
      const rows = await this.db
        .selectFrom('devicehub_devices')
        .select('id')
        .where('id', 'in', part)
        .execute();
      for (const row of rows) known.add(row.id);
    }
    return ids.filter((id) => !known.has(id));
  }

  /**
   * Replaces the account's rules in one transaction, after `check` (given the rules as they were,
   * and this repository on the transaction) lets it: a refusal it throws changes nothing. `rules`
   * as a function is read after the check. Answers the rules as they were.
   */
  async replace(
    userId: string,
    rules: RuleSet | (() => RuleSet),
    now: string,
    check?: (before: RuleSet, store: AccessRepository) => Promise<void>,
  ): Promise<RuleSet> {
    return this.db.transaction().execute(async (trx) => {
      const store = new AccessRepository(trx, this.dialect);
      await store.lock(userId);
      const before = await store.rules(userId);
      await check?.(before, store);
      // The rules to write may depend on what the check read (a caller's hidden entries kept).
      await store.write(userId, typeof rules === 'function' ? rules() : rules, now);
      return before;
    });
  }

  /**
   * Inside a transaction, on PostgreSQL: changes of the account's rules take turns (a
   * transaction-scoped advisory lock), so two instances' changes each land whole.
   */
  async lock(userId: string): Promise<void> {
    if (this.dialect === 'postgres')
      await sql`select pg_advisory_xact_lock(hashtext(current_schema() || '/hearth/access/' || ${userId}))`.execute(
        this.db,
      );
  }

  /** Writes the account's rules in place of its old ones (inside a transaction: `replace`, a role change). */
  async write(userId: string, rules: RuleSet, now: string): Promise<void> {
    await this.db.deleteFrom('access_room_rules').where('user_id', '=', userId).execute();
    await this.db.deleteFrom('access_device_rules').where('user_id', '=', userId).execute();
    const rooms = [...rules.rooms].map(([room_id, level]) => ({
      user_id: userId,
      room_id,
      level,
      updated_at: now,
    }));
    const devices = [...rules.devices].map(([device_id, level]) => ({
      user_id: userId,
      device_id,
      level,
      updated_at: now,
    }));
    for (const part of chunks(rooms)) await this.db.insertInto('access_room_rules').values(part).execute();
    for (const part of chunks(devices))
      await this.db.insertInto('access_device_rules').values(part).execute();
  }

  /** Every device of the registry (removed ones too: their rules wait for them) and its room. */
  async placement(): Promise<Map<string, string | null>> {
    const rows = await this.db.selectFrom('devicehub_devices').select(['id', 'room_id']).execute();
    return new Map(rows.map((row) => [row.id, row.room_id]));
  }

  /** A room's or a device's name, as a refusal names it. */
  async nameOf(what: 'room' | 'device', id: string): Promise<string | undefined> {
    const row = await this.db
      .selectFrom(what === 'room' ? 'rooms' : 'devicehub_devices')
      .select('name')
      .where('id', '=', id)
      .executeTakeFirst();
    return row?.name;
  }

  /**
   * A room is going (docs/access.md#deleting-a-room): each account's rule on it becomes a rule on
   * each of these devices the account has no rule of its own for. Run inside the deletion's
   * transaction (this repository on it); answers the accounts whose rules changed.
   */
  async carryRoomRules(roomId: string, deviceIds: readonly string[], now: string): Promise<string[]> {
    const rules = await this.db
      .selectFrom('access_room_rules')
      .select(['user_id', 'level'])
      .where('room_id', '=', roomId)
      .execute();
    if (rules.length === 0 || deviceIds.length === 0) return [];
    for (const { user_id, level } of rules) {
      const own = new Set<string>();
      for (const part of chunks(deviceIds)) {
        const rows = await this.db
          .selectFrom('access_device_rules')
          .select('device_id')
          .where('user_id', '=', user_id)
          .where('device_id', 'in', part)
          .execute();
        for (const row of rows) own.add(row.device_id);
      }
      const carried = deviceIds
        .filter((id) => !own.has(id))
        .map((device_id) => ({ user_id, device_id, level, updated_at: now }));
      for (const part of chunks(carried))
        await this.db.insertInto('access_device_rules').values(part).execute();
    }
    return rules.map((rule) => rule.user_id);
  }

  /** Deletes every rule of the account (a role change that resets them). */
  async clear(userId: string): Promise<void> {
    await this.db.deleteFrom('access_room_rules').where('user_id', '=', userId).execute();
    await this.db.deleteFrom('access_device_rules').where('user_id', '=', userId).execute();
  }
}

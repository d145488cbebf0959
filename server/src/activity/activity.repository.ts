import type { ActivityEntry, ActivityKind, ActivityResult } from '@hearth/contracts';
import type { ExpressionBuilder, Kysely, Selectable } from 'kysely';
import { chunks, yieldToEventLoop } from '../storage/batches.js';
import type { Database } from '../storage/schema.js';
import type { ActivityTable } from './activity.tables.js';

/** Rows per INSERT: 12 columns each, well under both databases' bound-parameter limits. */
const CHUNK = 400;

/** Where a page starts: after this entry (newest first). */
export interface ActivityPosition {
  at: string;
  id: string;
}

/** What a reader asks for; every field narrows. */
export interface ActivityFilter {
  actorId?: string | undefined;
  actorType?: string | undefined;
  deviceId?: string | undefined;
  roomId?: string | undefined;
  kind?: ActivityKind | undefined;
  /** ISO-8601, inclusive. */
  from?: string | undefined;
  /** ISO-8601, exclusive. */
  to?: string | undefined;
  /** Only entries about these devices, or about no device (a viewer's scope). */
  deviceIds?: readonly string[] | undefined;
  /** Only entries about these rooms, or about no room (a viewer's scope). */
  roomIds?: readonly string[] | undefined;
  /** Entries by this actor pass `deviceIds` and `roomIds` whatever they are about (a viewer's own). */
  exceptActor?: string | undefined;
}

export type ActivityRow = Selectable<ActivityTable>;

export function toEntry(row: ActivityRow): ActivityEntry {
  let detail: Record<string, unknown> = {};
  try {
    detail = JSON.parse(row.detail) as Record<string, unknown>;
  } catch {
    // a row is written by Hearth only; an unreadable detail reads as empty
  }
  return {
    id: row.id,
    at: row.at,
    actor: {
      type: row.actor_type as ActivityEntry['actor']['type'],
      ...(row.actor_id !== null ? { id: row.actor_id } : {}),
      label: row.actor_label,
      ...(row.actor_owner_id !== null
        ? { owner: { id: row.actor_owner_id, label: row.actor_owner_label ?? '' } }
        : {}),
    },
    ...(row.ip !== null ? { ip: row.ip } : {}),
    ...(row.client !== null ? { client: row.client } : {}),
    kind: row.kind as ActivityKind,
    ...(row.device_id !== null ? { device_id: row.device_id } : {}),
    ...(row.room_id !== null ? { room_id: row.room_id } : {}),
    detail,
    result: row.result as ActivityResult,
  };
}

/** The activity table: appended in batches, read newest first by keyset, pruned oldest first. */
export class ActivityRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** Appends rows in one transaction. */
  async append(rows: readonly ActivityRow[]): Promise<void> {
    if (rows.length === 0) return;
    await this.db.transaction().execute(async (trx) => {
      for (const chunk of chunks(rows, CHUNK)) {
        await trx.insertInto('activity').values(chunk).execute();
        await yieldToEventLoop();
      }
    });
  }

  /** Up to `limit` rows matching `filter`, newest first, after `after`. */
  async page(
    filter: ActivityFilter,
    after: ActivityPosition | undefined,
    limit: number,
  ): Promise<ActivityRow[]> {
    let query = this.db.selectFrom('activity').selectAll();
    // A person's entries include those of their API tokens (docs/activity.md#who-sees-what).
    const byActor = (eb: ExpressionBuilder<Database, 'activity'>, id: string) =>
      eb.or([eb('actor_id', '=', id), eb('actor_owner_id', '=', id)]);
    const { actorId } = filter;
    if (actorId !== undefined) query = query.where((eb) => byActor(eb, actorId));
    if (filter.actorType !== undefined) query = query.where('actor_type', '=', filter.actorType);
    if (filter.deviceId !== undefined) query = query.where('device_id', '=', filter.deviceId);
    if (filter.roomId !== undefined) query = query.where('room_id', '=', filter.roomId);
    if (filter.kind !== undefined) query = query.where('kind', '=', filter.kind);
    if (filter.from !== undefined) query = query.where('at', '>=', filter.from);
    if (filter.to !== undefined) query = query.where('at', '<', filter.to);
    const { deviceIds, roomIds, exceptActor } = filter;
    if (deviceIds !== undefined || roomIds !== undefined) {
      query = query.where((eb) => {
        const about = (column: 'device_id' | 'room_id', ids: readonly string[]) =>
          ids.length === 0
            ? eb(column, 'is', null)
            : eb.or([eb(column, 'is', null), eb(column, 'in', [...ids])]);
        const within = eb.and([
          ...(deviceIds !== undefined ? [about('device_id', deviceIds)] : []),
          ...(roomIds !== undefined ? [about('room_id', roomIds)] : []),
        ]);
        return exceptActor === undefined ? within : eb.or([byActor(eb, exceptActor), within]);
      });
    }
    if (after) {
      // A row-value comparison: both databases walk the (…, at, id) index from there.
      query = query.where((eb) => eb(eb.refTuple('at', 'id'), '<', eb.tuple(after.at, after.id)));
    }
    return query.orderBy('at', 'desc').orderBy('id', 'desc').limit(limit).execute();
  }

  /** Deletes up to `limit` of the oldest rows older than `before` (ISO); answers how many. */
  async prune(before: string, limit: number): Promise<number> {
    const oldest = await this.db
      .selectFrom('activity')
      .select(['at', 'id'])
      .where('at', '<', before)
      .orderBy('at')
      .orderBy('id')
      .limit(limit)
      .execute();
    const last = oldest.at(-1);
    if (!last) return 0;
    // Up to the last of those (by the same order): one range delete on the time index.
    const result = await this.db
      .deleteFrom('activity')
      .where((eb) => eb(eb.refTuple('at', 'id'), '<=', eb.tuple(last.at, last.id)))
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}

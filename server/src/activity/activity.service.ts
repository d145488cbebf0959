import { Readable } from 'node:stream';
import { type ActivityPage, isManager, type Role } from '@hearth/contracts';
import { CSV_HEADER, csvLine } from './activity.csv.js';
import { redact, type Sees } from './activity.redact.js';
import type {
  ActivityFilter,
  ActivityPosition,
  ActivityRepository,
  ActivityRow,
} from './activity.repository.js';
import { toEntry } from './activity.repository.js';
import { type ActivityExportQuery, type ActivityQuery, encodeCursor } from './activity.schemas.js';
import type { ActivityWriter } from './activity.writer.js';

/** Who is reading the log. */
export interface ActivityViewer {
  id: string;
  role: Role;
}

/**
 * What a viewer may read (docs/activity.md#who-sees-what): `actorId` only their own entries;
 * `deviceIds`, `roomIds` and `floorIds` the devices, rooms and floors an entry may name (entries
 * about others go, lists in the detail keep only these); the viewer's own entries stay, with what
 * they may not see left out. Nothing set: everything.
 */
export interface ActivityScope {
  actorId?: string;
  viewerId?: string;
  deviceIds?: readonly string[];
  roomIds?: readonly string[];
  floorIds?: readonly string[];
}

/**
 * docs/activity.md#who-sees-what: residents and admins read everything, a `user` only their own
 * entries. The seam for access rules: app.ts may hand the module a narrower `scope`.
 */
export const defaultScope = (viewer: ActivityViewer): ActivityScope =>
  isManager(viewer.role) ? {} : { actorId: viewer.id };

/** What a scope narrowed by access rules lets the viewer see; undefined: everything. */
function seesOf(scope: ActivityScope): Sees | undefined {
  const { deviceIds, roomIds, floorIds } = scope;
  if (deviceIds === undefined && roomIds === undefined && floorIds === undefined) return undefined;
  const among = (ids: readonly string[] | undefined) => {
    if (ids === undefined) return () => true;
    const set = new Set(ids);
    return (id: string) => set.has(id);
  };
  return {
    viewerId: scope.viewerId ?? scope.actorId ?? '',
    device: among(deviceIds),
    room: among(roomIds),
    floor: among(floorIds),
  };
}

const ACTOR_TYPES = new Set(['user', 'pass', 'api', 'automation', 'system']);
/** Rows the CSV export reads at a time. */
const EXPORT_CHUNK = 5000;
/** Reads a page may take to fill when a narrowed viewer's entries are left out; then it ends short. */
const PAGE_READS = 10;

export interface ActivityServiceOptions {
  repository: ActivityRepository;
  writer: Pick<ActivityWriter, 'flush'>;
  scope: (viewer: ActivityViewer) => ActivityScope | Promise<ActivityScope>;
}

export class ActivityService {
  constructor(private readonly options: ActivityServiceOptions) {}

  /** GET /api/activity: one page, newest first. */
  async list(viewer: ActivityViewer, query: ActivityQuery): Promise<ActivityPage> {
    const scoped = await this.filterFor(viewer, query);
    if (!scoped) return { entries: [], next_cursor: null };
    const { filter, shown } = scoped;
    // What this instance has just recorded is readable at once (the caller's own last action).
    await this.options.writer.flush();
    // A page reads on past the entries left out for the viewer (a few reads at most); the cursor
    // is the last entry read, shown or not.
    const entries: ActivityRow[] = [];
    let after: ActivityPosition | undefined = query.cursor;
    let more = true;
    for (let reads = 0; more && entries.length < query.limit && reads < PAGE_READS; reads++) {
      const rows = await this.options.repository.page(filter, after, query.limit + 1);
      let used = 0;
      for (const row of rows) {
        if (entries.length === query.limit) break;
        used++;
        after = row;
        const entry = shown(row);
        if (entry) entries.push(entry);
      }
      more = used < rows.length || rows.length > query.limit;
    }
    return {
      entries: entries.map(toEntry),
      next_cursor: more && after ? encodeCursor(after) : null,
    };
  }

  /** GET /api/activity/export: every matching entry as CSV, read from the database in chunks. */
  async export(viewer: ActivityViewer, query: ActivityExportQuery): Promise<Readable> {
    const scoped = await this.filterFor(viewer, query);
    await this.options.writer.flush();
    const { repository } = this.options;
    async function* lines(): AsyncGenerator<string> {
      yield CSV_HEADER;
      if (!scoped) return;
      const { filter, shown } = scoped;
      let after: { at: string; id: string } | undefined;
      for (;;) {
        const rows = await repository.page(filter, after, EXPORT_CHUNK);
        let chunk = '';
        for (const row of rows) {
          const entry = shown(row);
          if (entry) chunk += csvLine(entry);
        }
        if (chunk) yield chunk;
        if (rows.length < EXPORT_CHUNK) return;
        after = rows.at(-1);
      }
    }
    return Readable.from(lines());
  }

  /**
   * The query within the viewer's scope, and each row as the viewer may read it (undefined: not
   * at all); undefined when the query and the scope cannot both hold.
   */
  private async filterFor(
    viewer: ActivityViewer,
    query: ActivityExportQuery,
  ): Promise<{ filter: ActivityFilter; shown: (row: ActivityRow) => ActivityRow | undefined } | undefined> {
    const scope = await this.options.scope(viewer);
    const filter: ActivityFilter = {
      deviceId: query.device_id,
      roomId: query.room_id,
      kind: query.kind,
      from: query.from,
      to: query.to,
      deviceIds: scope.deviceIds,
      roomIds: scope.roomIds,
      exceptActor: scope.viewerId,
    };
    if (query.actor !== undefined) {
      if (ACTOR_TYPES.has(query.actor)) filter.actorType = query.actor;
      else filter.actorId = query.actor;
    }
    if (scope.actorId !== undefined) {
      if (filter.actorId !== undefined && filter.actorId !== scope.actorId) return undefined;
      filter.actorId = scope.actorId;
    }
    const sees = seesOf(scope);
    return { filter, shown: sees ? (row) => redact(row, sees) : (row) => row };
  }
}

import { Readable } from 'node:stream';
import { type ActivityPage, isManager, type Role } from '@hearth/contracts';
import { CSV_HEADER, csvLine } from './activity.csv.js';
import type { ActivityFilter, ActivityRepository } from './activity.repository.js';
import { toEntry } from './activity.repository.js';
import { type ActivityExportQuery, type ActivityQuery, encodeCursor } from './activity.schemas.js';
import type { ActivityWriter } from './activity.writer.js';

/** Who is reading the log. */
export interface ActivityViewer {
  id: string;
  role: Role;
}

/**
 * What a viewer may read: `actorId` only their own entries; `deviceIds` only entries about these
 * devices (or about none). Nothing set: everything.
 */
export interface ActivityScope {
  actorId?: string;
  deviceIds?: readonly string[];
}

/**
 * docs/activity.md#who-sees-what: residents and admins read everything, a `user` only their own
 * entries. The seam for access rules: app.ts may hand the module a narrower `scope`.
 */
export const defaultScope = (viewer: ActivityViewer): ActivityScope =>
  isManager(viewer.role) ? {} : { actorId: viewer.id };

const ACTOR_TYPES = new Set(['user', 'pass', 'api', 'system']);
/** Rows the CSV export reads at a time. */
const EXPORT_CHUNK = 5000;

export interface ActivityServiceOptions {
  repository: ActivityRepository;
  writer: Pick<ActivityWriter, 'flush'>;
  scope: (viewer: ActivityViewer) => ActivityScope | Promise<ActivityScope>;
}

export class ActivityService {
  constructor(private readonly options: ActivityServiceOptions) {}

  /** GET /api/activity: one page, newest first. */
  async list(viewer: ActivityViewer, query: ActivityQuery): Promise<ActivityPage> {
    const filter = await this.filterFor(viewer, query);
    if (!filter) return { entries: [], next_cursor: null };
    // What this instance has just recorded is readable at once (the caller's own last action).
    await this.options.writer.flush();
    const rows = await this.options.repository.page(filter, query.cursor, query.limit + 1);
    const more = rows.length > query.limit;
    const page = more ? rows.slice(0, query.limit) : rows;
    const last = page.at(-1);
    return {
      entries: page.map(toEntry),
      next_cursor: more && last ? encodeCursor(last) : null,
    };
  }

  /** GET /api/activity/export: every matching entry as CSV, read from the database in chunks. */
  async export(viewer: ActivityViewer, query: ActivityExportQuery): Promise<Readable> {
    const filter = await this.filterFor(viewer, query);
    await this.options.writer.flush();
    const { repository } = this.options;
    async function* lines(): AsyncGenerator<string> {
      yield CSV_HEADER;
      if (!filter) return;
      let after: { at: string; id: string } | undefined;
      for (;;) {
        const rows = await repository.page(filter, after, EXPORT_CHUNK);
        let chunk = '';
        for (const row of rows) chunk += csvLine(row);
        if (chunk) yield chunk;
        if (rows.length < EXPORT_CHUNK) return;
        after = rows.at(-1);
      }
    }
    return Readable.from(lines());
  }

  /** The query within the viewer's scope; undefined when the two cannot both hold. */
  private async filterFor(
    viewer: ActivityViewer,
    query: ActivityExportQuery,
  ): Promise<ActivityFilter | undefined> {
    const scope = await this.options.scope(viewer);
    const filter: ActivityFilter = {
      deviceId: query.device_id,
      roomId: query.room_id,
      kind: query.kind,
      from: query.from,
      to: query.to,
      deviceIds: scope.deviceIds,
    };
    if (query.actor !== undefined) {
      if (ACTOR_TYPES.has(query.actor)) filter.actorType = query.actor;
      else filter.actorId = query.actor;
    }
    if (scope.actorId !== undefined) {
      if (filter.actorId !== undefined && filter.actorId !== scope.actorId) return undefined;
      filter.actorId = scope.actorId;
    }
    return filter;
  }
}

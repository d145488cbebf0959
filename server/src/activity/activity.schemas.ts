import { ACTIVITY_KINDS, ACTIVITY_PAGE_SIZE } from '@hearth/contracts';
import { z } from 'zod';
import { queryText, queryTime } from '../http/validation.js';
import { ACTIVITY_ERRORS as E } from './activity.errors.js';
import type { ActivityPosition } from './activity.repository.js';

/** `from`/`to`: ISO-8601 (with a date) or epoch ms; parsed to ISO-8601 UTC. */
const time = (name: string, message: string) =>
  queryText(name).transform((value, ctx) => {
    const t = queryTime(value);
    if (!Number.isFinite(t) || t < 0 || t > 253402300799999) {
      ctx.addIssue({ code: 'custom', message });
      return z.NEVER;
    }
    return new Date(t).toISOString();
  });

/** An id-like filter: empty means not given. */
const id = (name: string) =>
  queryText(name)
    .trim()
    .max(200, { error: E.tooLong(name) })
    .transform((value) => value || undefined)
    .optional();

/** The cursor is the last entry's position, opaque to callers (base64url JSON). */
export const encodeCursor = (position: ActivityPosition): string =>
  Buffer.from(JSON.stringify([position.at, position.id])).toString('base64url');

const cursor = queryText('cursor').transform((value, ctx): ActivityPosition => {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(value, 'base64url').toString('utf8'));
    if (
      Array.isArray(parsed) &&
      parsed.length === 2 &&
      typeof parsed[0] === 'string' &&
      typeof parsed[1] === 'string' &&
      !Number.isNaN(Date.parse(parsed[0])) &&
      parsed[1].length <= 64
    ) {
      return { at: parsed[0], id: parsed[1] };
    }
  } catch {
    // falls through to the issue
  }
  ctx.addIssue({ code: 'custom', message: E.cursor });
  return z.NEVER;
});

const filters = {
  /** A person's or pass's id, or an actor type (`system`, `api`, `pass`, `user`). */
  actor: id('actor'),
  room_id: id('room_id'),
  device_id: id('device_id'),
  kind: z
    .preprocess(
      (value) => (value === '' ? undefined : value),
      z.enum(ACTIVITY_KINDS, {
        error: (issue) => (Array.isArray(issue.input) ? 'kind must be given once' : E.kind),
      }),
    )
    .optional(),
  from: time('from', E.from).optional(),
  to: time('to', E.to).optional(),
};

const ordered = <T extends { from?: string | undefined; to?: string | undefined }>(query: T) =>
  query.from === undefined || query.to === undefined || query.from < query.to;

/** GET /api/activity/export */
export const activityExportQuery = z.object(filters).refine(ordered, { error: E.range, path: ['from'] });
export type ActivityExportQuery = z.output<typeof activityExportQuery>;

/** GET /api/activity */
export const activityQuery = z
  .object({
    ...filters,
    cursor: cursor.optional(),
    limit: queryText('limit')
      .optional()
      .transform((value, ctx) => {
        if (value === undefined || value === '') return ACTIVITY_PAGE_SIZE;
        const n = /^\d{1,4}$/.test(value.trim()) ? Number(value) : Number.NaN;
        if (!(n >= 1 && n <= ACTIVITY_PAGE_SIZE)) {
          ctx.addIssue({ code: 'custom', message: E.limit });
          return z.NEVER;
        }
        return n;
      }),
  })
  .refine(ordered, { error: E.range, path: ['from'] });
export type ActivityQuery = z.output<typeof activityQuery>;

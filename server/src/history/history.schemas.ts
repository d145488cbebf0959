import { HISTORY_DEFAULT_POINTS, HISTORY_MAX_POINTS } from '@hearth/contracts';
import { z } from 'zod';
import { queryText, queryTime } from '../http/validation.js';
import { HISTORY_ERRORS as E } from './history.errors.js';

/** `from`/`to`: ISO-8601 (with a date) or epoch ms; parsed to epoch ms. */
const time = (message: string) =>
  queryText(message.split(' ')[0]!).transform((value, ctx) => {
    const t = queryTime(value);
    if (!Number.isFinite(t) || Math.abs(t) > 8.64e15) {
      ctx.addIssue({ code: 'custom', message });
      return z.NEVER;
    }
    return t;
  });

const required = (name: string, message: string) =>
  z
    .string({ error: (issue) => (Array.isArray(issue.input) ? `${name} must be given once` : message) })
    .trim()
    .min(1, { error: message });

const base = {
  device_id: required('device_id', E.deviceId),
  property: required('property', E.property),
  from: time(E.from).optional(),
  to: time(E.to).optional(),
};

/** GET /api/history */
export const historyQuery = z.object({
  ...base,
  points: queryText('points')
    .optional()
    .transform((value, ctx) => {
      if (value === undefined) return HISTORY_DEFAULT_POINTS;
      const n = /^\d{1,6}$/.test(value.trim()) ? Number(value) : Number.NaN;
      if (!(n >= 2 && n <= HISTORY_MAX_POINTS)) {
        ctx.addIssue({ code: 'custom', message: E.points });
        return z.NEVER;
      }
      return n;
    }),
});
export type HistoryQuery = z.output<typeof historyQuery>;

/** GET /api/history/export */
export const historyExportQuery = z.object(base);
export type HistoryExportQuery = z.output<typeof historyExportQuery>;

/** PUT /api/history/exclusions/:id */
export const exclusionsBody = z.object({
  device: z.boolean({ error: E.exclusionDevice }),
  properties: z
    .array(z.string({ error: E.exclusionProperties }).min(1, { error: E.exclusionProperties }).max(256), {
      error: E.exclusionProperties,
    })
    .max(1000, { error: E.exclusionProperties }),
});
export type ExclusionsBody = z.output<typeof exclusionsBody>;

import {
  PASS_LABEL_MAX_LENGTH,
  PASS_LEVELS,
  PASS_MAX_ITEMS,
  PASS_MAX_WINDOWS,
  type PassWindow,
  WEEKDAYS,
} from '@hearth/contracts';
import { z } from 'zod';
import { PASSES_ERRORS as E } from './passes.errors.js';

const ids = (field: string) =>
  z
    .array(
      z
        .string({ error: E.ids(field) })
        .min(1, { error: E.ids(field) })
        .max(200, { error: E.ids(field) }),
      {
        error: E.ids(field),
      },
    )
    .max(PASS_MAX_ITEMS, { error: E.tooMany(field) })
    .transform((list) => [...new Set(list)]);

const time = (field: string) =>
  z
    .string({ error: E.time(field) })
    .refine((value) => /^\d{4}-\d{2}-\d{2}T/.test(value) && Number.isFinite(Date.parse(value)), {
      error: E.time(field),
    })
    .transform((value) => new Date(value).toISOString());

const clock = z.string({ error: E.clock }).regex(/^(([01]\d|2[0-3]):[0-5]\d|24:00)$/, { error: E.clock });

/** One weekly window: `{days, from, to}` (docs/passes.md#validity). */
export const passWindow = z
  .object(
    {
      days: z
        .array(z.enum(WEEKDAYS, { error: E.days }), { error: E.days })
        .min(1, { error: E.days })
        .max(7, { error: E.days })
        .transform((days) => WEEKDAYS.filter((day) => days.includes(day))),
      from: clock,
      to: clock,
    },
    { error: E.schedule },
  )
  .refine((window) => window.from !== '24:00' && window.from < window.to, { error: E.toAfterFrom });

/** POST /api/passes */
export const createPassBody = z
  .object({
    label: z
      .string({ error: E.label })
      .trim()
      .max(PASS_LABEL_MAX_LENGTH, { error: E.label })
      .optional()
      .transform((label) => (label ? label : null)),
    rooms: ids('rooms').optional().default([]),
    devices: ids('devices').optional().default([]),
    level: z.enum(PASS_LEVELS, { error: E.level }),
    starts_at: time('starts_at').optional(),
    ends_at: time('ends_at').optional(),
    schedule: z
      .array(passWindow, { error: E.schedule })
      .min(1, { error: E.schedule })
      .max(PASS_MAX_WINDOWS, { error: E.tooManyWindows })
      .optional(),
  })
  .refine((body) => body.rooms.length + body.devices.length > 0, { error: E.nothingCovered })
  .refine((body) => body.ends_at !== undefined || body.schedule !== undefined, { error: E.whenRequired })
  .refine((body) => !body.starts_at || !body.ends_at || body.starts_at < body.ends_at, {
    error: E.endBeforeStart,
  });
export type CreatePass = z.output<typeof createPassBody>;

/** PATCH /api/passes/:id */
export const updatePassBody = z.object({ paused: z.boolean({ error: E.pausedFlag }) });
export type UpdatePass = z.output<typeof updatePassBody>;

/** `/api/pass/:token…`: any text up to 200 characters; what it is decides only the hash look-up. */
export const tokenParams = z.object({ token: z.string().max(200) });
export const tokenDeviceParams = z.object({ token: z.string().max(200), id: z.string() });

/** A stored schedule, read back. */
export const storedSchedule = z.array(passWindow) satisfies z.ZodType<PassWindow[], unknown>;

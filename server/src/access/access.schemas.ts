import { ACCESS_LEVELS } from '@hearth/contracts';
import { z } from 'zod';
import { ACCESS_ERRORS as E } from './access.errors.js';

/** Most entries `rooms` or `devices` may hold (DEVICEHUB_MAX_DEVICES' default). */
export const MAX_RULES = 5000;

const level = z.enum(ACCESS_LEVELS, { error: E.level });
const entries = z
  .record(z.string().min(1, { error: E.rules }).max(200, { error: E.rules }), level, { error: E.rules })
  .refine((rules) => Object.keys(rules).length <= MAX_RULES, { error: E.tooMany })
  .optional()
  .transform((rules) => rules ?? {});

/** PUT /api/access/{user_id}: the body GET answers with; `user_id`, if given, must be the address's. */
export const accessRulesBody = z.object(
  { user_id: z.string({ error: E.userIdMismatch }).optional(), rooms: entries, devices: entries },
  { error: E.rules },
);
export type AccessRulesInput = z.output<typeof accessRulesBody>;

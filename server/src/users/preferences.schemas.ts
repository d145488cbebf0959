import { z } from 'zod';
import { USER_ADMIN_ERRORS as E } from './users.errors.js';

/** PATCH /api/auth/preferences: the fields to change (docs/api.md#preferences); others are dropped. */
export const preferencesBody = z
  .object({
    hide_examples: z.boolean({ error: E.hideExamples }).optional(),
  })
  .refine((body) => Object.values(body).some((value) => value !== undefined), {
    error: E.noPreference,
  });
export type PreferencesChange = z.output<typeof preferencesBody>;

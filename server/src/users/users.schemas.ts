import { ROLES } from '@hearth/contracts';
import { z } from 'zod';
import { queryText } from '../http/validation.js';
import { USER_ADMIN_ERRORS as E } from './users.errors.js';

export const PAGE_SIZES = [10, 20, 50, 100] as const;
export const DEFAULT_PAGE_SIZE = 20;
const MAX_QUERY_LENGTH = 200;
export const MAX_NAME_LENGTH = 64;

/** A page number in the query: absent or empty → `fallback`. */
const positiveInteger = (name: string, fallback: number) =>
  z
    .preprocess(
      (value) => (value === '' ? undefined : value),
      queryText(name)
        .regex(/^[1-9][0-9]{0,8}$/, { error: `${name} must be a positive integer` })
        .transform(Number)
        .optional(),
    )
    .transform((value) => value ?? fallback);

/** GET /api/auth/users?q=&page=&page_size= (docs/api.md#users-page). */
export const listUsersQuery = z.object({
  q: queryText('q')
    .trim()
    .max(MAX_QUERY_LENGTH, { error: `q must be at most ${MAX_QUERY_LENGTH} characters` })
    .transform((q) => q || undefined)
    .optional(),
  page: positiveInteger('page', 1),
  page_size: positiveInteger('page_size', DEFAULT_PAGE_SIZE).refine(
    (size) => (PAGE_SIZES as readonly number[]).includes(size),
    { error: `page_size must be one of ${PAGE_SIZES.join(', ')}` },
  ),
});
export type ListUsersQuery = z.output<typeof listUsersQuery>;

const personName = z
  .string({ error: E.namesRequired })
  .trim()
  .min(1, { error: E.namesRequired })
  .max(MAX_NAME_LENGTH, { error: E.namesTooLong });

/** PATCH /api/auth/users/:id: only these fields; anything else in the body is dropped (no mass assignment). */
export const updateUserBody = z
  .object({
    role: z.enum(ROLES, { error: E.unknownRole }).optional(),
    first_name: personName.optional(),
    last_name: personName.optional(),
    /** With `role`: true resets the account's access rules to the new role's defaults (docs/access.md). */
    reset_access: z.boolean({ error: E.resetAccess }).optional(),
  })
  .refine((body) => !body.reset_access || body.role !== undefined, { error: E.resetWithoutRole });
export type UserUpdate = z.output<typeof updateUserBody>;

/** POST /api/auth/users/:id/lockout: `{lock}`, or `{locked}` as one reading of docs/api.md#accounts has it. */
export const lockoutBody = z
  .object(
    {
      lock: z.boolean({ error: E.lockFlag }).optional(),
      locked: z.boolean({ error: E.lockFlag }).optional(),
    },
    { error: E.lockFlag },
  )
  .transform((body) => body.lock ?? body.locked)
  .pipe(z.boolean({ error: E.lockFlag }));

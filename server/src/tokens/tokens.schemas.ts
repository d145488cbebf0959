import {
  API_TOKEN_EXPIRIES,
  API_TOKEN_MAX_ITEMS,
  API_TOKEN_NAME_MAX_LENGTH,
  API_TOKEN_SCOPES,
  type ApiTokenExpiry,
} from '@hearth/contracts';
import { z } from 'zod';
import { TOKENS_ERRORS as E } from './tokens.errors.js';

const ids = (field: string) =>
  z
    .array(
      z
        .string({ error: E.ids(field) })
        .min(1, { error: E.ids(field) })
        .max(200, { error: E.ids(field) }),
      { error: E.ids(field) },
    )
    .max(API_TOKEN_MAX_ITEMS, { error: E.tooMany(field) })
    .transform((list) => [...new Set(list)]);

const EXPIRIES = Object.keys(API_TOKEN_EXPIRIES) as [ApiTokenExpiry, ...ApiTokenExpiry[]];

/** POST /api/auth/tokens */
export const createTokenBody = z.object({
  name: z
    .string({ error: E.name })
    .trim()
    .min(1, { error: E.name })
    .max(API_TOKEN_NAME_MAX_LENGTH, { error: E.nameTooLong }),
  expires_in: z.enum(EXPIRIES, { error: E.expiry }),
  scope: z.enum(API_TOKEN_SCOPES, { error: E.scope }),
  rooms: ids('rooms').optional().default([]),
  devices: ids('devices').optional().default([]),
});
export type CreateToken = z.output<typeof createTokenBody>;

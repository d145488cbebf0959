import { z } from 'zod';
import { queryText } from '../../http/validation.js';

export const providerParams = z.object({ provider: z.string() });

/** `nonce`: the web app's one-time value, echoed back with the tokens (login CSRF defence). */
export const loginQuery = z.object({
  nonce: z
    .string({ error: 'nonce must be text' })
    .regex(/^[A-Za-z0-9_-]{16,128}$/, { error: 'nonce must be 16-128 letters, digits, "-" or "_"' })
    .optional(),
});

/**
 * What the provider sends back: `code` and `state`, or `error` (RFC 6749 §4.1.2). Other
 * parameters (`iss`, `session_state`, …) are passed on to openid-client as they came.
 */
export const callbackQuery = z.looseObject({
  state: queryText('state').optional(),
  code: queryText('code').optional(),
  error: queryText('error').optional(),
});

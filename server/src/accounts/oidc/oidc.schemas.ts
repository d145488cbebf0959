import { z } from 'zod';
import { noQuery, queryText } from '../../http/validation.js';

export const providerParams = z.object({ provider: z.string() });

export const loginQuery = noQuery;

/**
 * What the provider sends back: `code` and `state`, or `error` (RFC 6749 §4.1.2). Other
 * parameters (`iss`, `session_state`, …) are passed on to openid-client as they came.
 */
export const callbackQuery = z.looseObject({
  state: queryText('state').optional(),
  code: queryText('code').optional(),
  error: queryText('error').optional(),
});

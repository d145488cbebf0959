import type { FastifyError, FastifyInstance } from 'fastify';
import { isDatabaseUnavailable } from '../storage/unavailable.js';

/** The answer while the database cannot be reached (with Retry-After). */
export const SERVICE_UNAVAILABLE = 'Service temporarily unavailable, please try again later';
const RETRY_AFTER_SECONDS = '5';
/** During an outage every request fails the same way: one log line per this many ms is enough. */
const OUTAGE_LOG_INTERVAL_MS = 10_000;

/**
 * Every error leaves as JSON `{ "error": "…" }`. Client errors keep their message; an unreachable
 * database answers 503 with Retry-After; other server errors are logged and answered with a
 * generic one, so no internals leak.
 */
export function registerErrorHandling(app: FastifyInstance) {
  let outageLogged = 0;
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (isDatabaseUnavailable(error)) {
      if (Date.now() - outageLogged > OUTAGE_LOG_INTERVAL_MS) {
        outageLogged = Date.now();
        request.log.warn({ err: error }, 'database unavailable; answering 503');
      }
      return reply.code(503).header('retry-after', RETRY_AFTER_SECONDS).send({ error: SERVICE_UNAVAILABLE });
    }
    const status = error.statusCode && error.statusCode >= 400 ? error.statusCode : 500;
    if (status >= 500) {
      request.log.error({ err: error }, 'request failed');
      return reply.code(status).send({ error: 'Internal server error' });
    }
    let message = error.message;
    if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') message = 'Request body is too large';
    else if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') message = 'Unsupported content type';
    else if (
      error instanceof SyntaxError ||
      error.code === 'FST_ERR_CTP_EMPTY_JSON_BODY' ||
      error.code === 'FST_ERR_CTP_INVALID_JSON_BODY'
    )
      message = 'Malformed JSON body';
    return reply.code(status).send({ error: message });
  });
}

import type { FastifyError, FastifyInstance } from 'fastify';

/**
 * Every error leaves as JSON `{ "error": "…" }`. Client errors keep their message; server
 * errors are logged and answered with a generic one, so no internals leak.
 */
export function registerErrorHandling(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError, request, reply) => {
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

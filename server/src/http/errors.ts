import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { isDatabaseUnavailable } from '../storage/unavailable.js';
import type { HttpApp } from './http-app.js';

/**
 * The one client-facing failure: a status, the `{error}` text, extra body fields (e.g.
 * `lockout_remaining`) and headers (e.g. `Retry-After`). Domains throw it; `registerErrorHandling`
 * turns it into the answer. Any other error is a server error: logged, answered generically.
 */
export class HttpError extends Error {
  override name = 'HttpError';
  constructor(
    readonly statusCode: number,
    message: string,
    readonly extra: Record<string, unknown> = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

/** A path parameter, query or body with a control character in it (docs/api.md#text). */
export const CONTROL_CHARACTERS = (field: string) => `${field} must not contain control characters`;

/** The answer while the database cannot be reached (with Retry-After). */
export const SERVICE_UNAVAILABLE = 'Service temporarily unavailable, please try again later';
const RETRY_AFTER_SECONDS = '5';
/** During an outage every request fails the same way: one log line per this many ms is enough. */
const OUTAGE_LOG_INTERVAL_MS = 10_000;

/** Texts for failures Fastify finds before a route runs; a route may override them (`config.messages`). */
export interface RequestMessages {
  malformedBody: string;
  emptyBody: string;
}

const DEFAULT_MESSAGES: RequestMessages = {
  malformedBody: 'Malformed JSON body',
  emptyBody: 'Malformed JSON body',
};

/** Fastify's own errors that need an answer in words a client can use (and no echoed input). */
const FASTIFY_MESSAGES: Record<string, string> = {
  FST_ERR_CTP_BODY_TOO_LARGE: 'Request body is too large',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'Unsupported content type',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'Invalid content length',
  FST_ERR_MAX_PARAM_LENGTH: 'URI is too long',
  FST_ERR_BAD_URL: 'Malformed URL',
};

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Answers in the wrapper of docs/api.md#result-wrapper-in-the-web-app `{success: false, data: null, error}` (device calls). */
    resultEnvelope?: boolean;
    /** This route's texts for a body Fastify can't parse. */
    messages?: Partial<RequestMessages>;
  }
}

/** The body of an error answer: `{error, …extra}`, or the result wrapper where the route uses it. */
function errorBody(request: FastifyRequest, message: string, extra = {}) {
  return request.routeOptions?.config?.resultEnvelope
    ? { success: false, data: null, error: message, ...extra }
    : { error: message, ...extra };
}

/** Status and text of any error, as the client sees them. */
function describe(error: FastifyError, request: FastifyRequest): { status: number; message: string } {
  if (error instanceof HttpError) return { status: error.statusCode, message: error.message };
  if (hasZodFastifySchemaValidationErrors(error)) {
    // A repeated query parameter is named first: it explains the other issues it causes.
    const repeated = error.validation.find((issue) => issue.message?.endsWith(' must be given once'));
    return { status: 400, message: (repeated ?? error.validation[0])?.message ?? 'Invalid request' };
  }
  const messages = { ...DEFAULT_MESSAGES, ...request.routeOptions?.config?.messages };
  if (error.code === 'FST_ERR_CTP_EMPTY_JSON_BODY') return { status: 400, message: messages.emptyBody };
  if (error instanceof SyntaxError || error.code === 'FST_ERR_CTP_INVALID_JSON_BODY') {
    return { status: 400, message: messages.malformedBody };
  }
  const status =
    error.statusCode && error.statusCode >= 400 && error.statusCode < 600 ? error.statusCode : 500;
  const known = error.code ? FASTIFY_MESSAGES[error.code] : undefined;
  // Other errors' messages may carry internals or echo the request: only the status's name leaves.
  return {
    status,
    message: status >= 500 ? 'Internal server error' : (known ?? STATUS_CODES[status] ?? 'Error'),
  };
}

/**
 * Every error leaves as JSON `{ "error": "…" }` (plus an HttpError's extra fields and headers),
 * whether a domain threw it, a schema refused the request or Fastify itself did. Server errors are
 * logged and answered with a generic text, so no internals leak.
 */
export function registerErrorHandling(app: HttpApp) {
  app.setErrorHandler(answerError);
}

let outageLogged = 0;

/**
 * The serialiser itself; also Fastify's `frameworkErrors` (bad URLs, over-long parameters). An
 * unreachable database answers 503 with Retry-After, whichever domain ran into it.
 */
export function answerError(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  if (!(error instanceof HttpError) && isDatabaseUnavailable(error)) {
    if (Date.now() - outageLogged > OUTAGE_LOG_INTERVAL_MS) {
      outageLogged = Date.now();
      request.log.warn({ err: error }, 'database unavailable; answering 503');
    }
    return reply
      .code(503)
      .header('retry-after', RETRY_AFTER_SECONDS)
      .send(errorBody(request, SERVICE_UNAVAILABLE));
  }
  const { status, message } = describe(error, request);
  if (status >= 500 && !(error instanceof HttpError)) request.log.error({ err: error }, 'request failed');
  if (error instanceof HttpError) reply.headers(error.headers);
  // Every 503 tells the client when to come back, whichever domain said it.
  if (status === 503 && !reply.hasHeader('retry-after')) reply.header('retry-after', RETRY_AFTER_SECONDS);
  return reply.code(status).send(errorBody(request, message, error instanceof HttpError ? error.extra : {}));
}

/**
 * Fastify's `clientErrorHandler`: requests too broken to reach the router (oversized headers, bad
 * request lines, time-outs) get the same `{error}` shape.
 */
export function answerClientError(error: NodeJS.ErrnoException, socket: Socket) {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const status =
    error.code === 'HPE_HEADER_OVERFLOW' ? 431 : error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
  const body = JSON.stringify({ error: STATUS_CODES[status] });
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy();
}

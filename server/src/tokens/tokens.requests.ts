import { type ActivityResult, API_TOKEN_PATTERN, API_TOKEN_PREFIX } from '@hearth/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ApiTokenGuard } from '../accounts/index.js';
import { type ActivityLog, originOf } from '../activity/index.js';
import { HttpError } from '../http/errors.js';
import type { HttpApp } from '../http/http-app.js';
import type { UserRecord } from '../users/index.js';
import { isAccountsApi, tokenCall } from './tokens.calls.js';
import { TOKENS_ERRORS as E } from './tokens.errors.js';
import type { ApiTokenRecord } from './tokens.repository.js';
import { type ApiTokensService, apiActor } from './tokens.service.js';

/** A request an API token made, as far as it got. */
interface TokenUse {
  token: ApiTokenRecord;
  caller: UserRecord;
  /** Its route ran (a route that records its own entry has then recorded it). */
  handled: boolean;
  /** Not recorded: a 429 after the window's first. */
  quiet: boolean;
  /** The text of its error answer. */
  reason?: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set when an API token made the call (docs/api.md#api-tokens). */
    apiToken?: TokenUse;
  }
}

const bearer = (request: FastifyRequest): string | undefined => {
  const header = request.headers.authorization;
  const match = header ? /^Bearer\s+(\S+)$/i.exec(header) : null;
  return match?.[1];
};
const pathOf = (url: string) => url.split('?', 1)[0] ?? url;
/** The accounts API by the route matched (however its address was spelt) or by the address. */
const onAccountsApi = (request: FastifyRequest) =>
  isAccountsApi(request.routeOptions.url ?? '') || isAccountsApi(pathOf(request.url));

/**
 * The guard's side of a token's call (the accounts domain's `Authenticator` hands `hearth_…`
 * bearers here): the token must be live and within its rate limit, and the route one it may call
 * with its scope (docs/api.md#what-a-token-may-call). Refusals after the token is known are recorded.
 */
export function tokenGuard(service: ApiTokensService): ApiTokenGuard {
  return async (text, request) => {
    if (onAccountsApi(request)) throw new HttpError(403, E.accountsApi);
    const acting = await service.act(text, { ip: request.ip });
    request.apiToken = { token: acting.token, caller: acting.caller, handled: false, quiet: false };
    if (acting.over) {
      request.apiToken.quiet = !acting.over.first;
      throw acting.over.error;
    }
    const call = tokenCall(request.method, request.routeOptions.url);
    if (!call) throw new HttpError(403, E.notOpen);
    if (call.scope === 'control' && acting.token.scope === 'read') throw new HttpError(403, E.readOnly);
    return acting.caller;
  };
}

const resultOf = (status: number): ActivityResult =>
  status < 400 ? 'ok' : status < 500 ? 'refused' : 'failed';

/**
 * Hooks on every request (registered before any route):
 * - a token anywhere in the address is refused (400) before anything reads it; the request log
 *   never shows it (`redactUrl`);
 * - a token on the accounts API answers 403 (its use recorded when the token is live), whatever
 *   the route would do without a sign-in;
 * - every other call a token made leaves one activity entry: its route's own (a command), or
 *   `api.call` with the method, route and status.
 */
export function registerTokenHooks(app: HttpApp, service: ApiTokensService, activity: ActivityLog) {
  app.decorateRequest('apiToken', undefined);

  app.addHook('onRequest', (request, _reply, done) => {
    if (request.url.includes(API_TOKEN_PREFIX) && API_TOKEN_PATTERN.test(request.url)) {
      return done(new HttpError(400, E.inAddress));
    }
    if (!request.headers.authorization?.includes(API_TOKEN_PREFIX)) return done();
    const text = bearer(request);
    if (!text?.startsWith(API_TOKEN_PREFIX) || !onAccountsApi(request)) return done();
    service.resolve(text).then(
      (found) => {
        if (found) {
          const caller = { ...found.owner };
          request.apiToken = { token: found.token, caller, handled: false, quiet: false };
        }
        done(new HttpError(403, E.accountsApi));
      },
      (error: Error) => done(error),
    );
  });

  app.addHook('preHandler', (request, _reply, done) => {
    if (request.apiToken) request.apiToken.handled = true;
    done();
  });

  app.addHook('onSend', (request, reply, payload, done) => {
    const use = request.apiToken;
    if (use && reply.statusCode >= 400 && typeof payload === 'string') {
      try {
        const error: unknown = (JSON.parse(payload) as { error?: unknown }).error;
        if (typeof error === 'string') use.reason = error.slice(0, 200);
      } catch {
        // not JSON: no reason to record
      }
    }
    done(null, payload);
  });

  app.addHook('onResponse', (request: FastifyRequest, reply: FastifyReply, done) => {
    const use = request.apiToken;
    if (!use || use.quiet) return done();
    const url = request.routeOptions.url;
    const status = reply.statusCode;
    const records = use.handled ? tokenCall(request.method, url)?.records : undefined;
    if (records === true || (records === 'sent' && status < 400)) return done();
    const query = request.query as Record<string, unknown> | undefined;
    const params = request.params as Record<string, unknown> | undefined;
    const deviceId = typeof query?.device_id === 'string' ? query.device_id : undefined;
    activity.record({
      actor: apiActor(use.token, use.caller),
      ...originOf(request),
      kind: 'api.call',
      ...(deviceId ? { device_id: deviceId } : {}),
      result: resultOf(status),
      detail: {
        method: request.method,
        route: url ?? pathOf(request.url),
        status,
        ...(params && Object.keys(params).length > 0 ? { params } : {}),
        ...(use.reason && status >= 400 ? { reason: use.reason } : {}),
      },
    });
    done();
  });
}

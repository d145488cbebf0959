import { type ActivityLog, trackRequests } from '../activity/index.js';
import type { HttpApp } from '../http/http-app.js';
import { idParams, noBody, noQuery } from '../http/validation.js';
import { callerOf, type Guards } from '../users/index.js';
import { createTokenBody } from './tokens.schemas.js';
import type { ApiTokensService } from './tokens.service.js';

/**
 * docs/api.md#api-tokens: GET and POST /api/auth/tokens, DELETE /api/auth/tokens/:id. Under the
 * accounts API, so no API token may call them: a token never makes or ends tokens.
 */
export function registerTokensRoutes(
  app: HttpApp,
  guards: Guards,
  service: ApiTokensService,
  activity: ActivityLog,
) {
  const logged = trackRequests(activity, callerOf);

  app.get('/api/auth/tokens', { onRequest: guards.user, schema: { querystring: noQuery } }, (request) =>
    service.list(callerOf(request)),
  );
  app.post(
    '/api/auth/tokens',
    { onRequest: guards.user, schema: { querystring: noQuery, body: createTokenBody } },
    async (request, reply) => {
      const { body } = request;
      reply.code(201);
      const detail = {
        name: body.name,
        scope: body.scope,
        expires_in: body.expires_in,
        rooms: body.rooms.slice(0, 50),
        devices: body.devices.slice(0, 50),
      };
      return logged(
        request,
        { kind: 'token.create', detail },
        () => service.create(callerOf(request), body),
        (token) => ({ detail: { ...detail, token_id: token.id } }),
      );
    },
  );
  app.delete(
    '/api/auth/tokens/:id',
    { onRequest: guards.user, schema: { params: idParams, querystring: noQuery, body: noBody } },
    async (request, reply) => {
      await logged(
        request,
        { kind: 'token.revoke', detail: { token_id: request.params.id } },
        () => service.revoke(callerOf(request), request.params.id),
        (token) => ({ detail: { token_id: token.id, name: token.name, owner_id: token.ownerId } }),
      );
      return reply.code(204).send();
    },
  );
}

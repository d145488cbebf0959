import { MANAGER_ROLES } from '@hearth/contracts';
import { userActor } from '../activity/index.js';
import type { ReachSource } from '../devicehub/index.js';
import type { HttpApp } from '../http/http-app.js';
import { idParams, noBody, noQuery } from '../http/validation.js';
import { callerOf, type Guards } from '../users/index.js';
import { captureSceneBody, createSceneBody, updateSceneBody } from './scenes.schemas.js';
import type { ScenesService } from './scenes.service.js';

/** docs/automations.md#api: residents and admins (a `user` gets 403). */
export function registerScenesRoutes(
  app: HttpApp,
  guards: Guards,
  service: ScenesService,
  reach: ReachSource,
) {
  const manage = guards.role(...MANAGER_ROLES);
  const editor = async (request: Parameters<typeof callerOf>[0]) => {
    const user = callerOf(request);
    return { id: user.id, reach: await reach.reachOf(user) };
  };

  app.get('/api/scenes', { onRequest: manage, schema: { querystring: noQuery } }, async (_request, reply) => {
    reply.header('cache-control', 'no-store');
    return service.list();
  });
  app.post(
    '/api/scenes',
    { onRequest: manage, schema: { querystring: noQuery, body: createSceneBody } },
    async (request, reply) => {
      reply.code(201);
      return service.create(await editor(request), request.body);
    },
  );
  app.post(
    '/api/scenes/capture',
    { onRequest: manage, schema: { querystring: noQuery, body: captureSceneBody } },
    async (request, reply) => {
      reply.code(201);
      return service.capture(await editor(request), request.body);
    },
  );
  app.patch(
    '/api/scenes/:id',
    { onRequest: manage, schema: { params: idParams, querystring: noQuery, body: updateSceneBody } },
    async (request) => service.update(await editor(request), request.params.id, request.body),
  );
  app.delete(
    '/api/scenes/:id',
    { onRequest: manage, schema: { params: idParams, querystring: noQuery, body: noBody } },
    async (request, reply) => {
      await service.delete(request.params.id);
      return reply.code(204).send();
    },
  );
  app.post(
    '/api/scenes/:id/apply',
    { onRequest: manage, schema: { params: idParams, querystring: noQuery, body: noBody } },
    async (request) => {
      const user = callerOf(request);
      return service.apply({ actor: userActor(user), reach: await reach.reachOf(user) }, request.params.id);
    },
  );
}

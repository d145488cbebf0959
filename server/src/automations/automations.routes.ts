import { MANAGER_ROLES } from '@hearth/contracts';
import type { HttpApp } from '../http/http-app.js';
import { idParams, noBody, noQuery } from '../http/validation.js';
import { callerOf, type Guards } from '../users/index.js';
import {
  createAutomationBody,
  listAutomationsQuery,
  locationBody,
  updateAutomationBody,
} from './automations.schemas.js';
import type { AutomationsService } from './automations.service.js';

/** docs/automations.md#api: residents and admins (a `user` gets 403); the location is set by admins. */
export function registerAutomationsRoutes(app: HttpApp, guards: Guards, service: AutomationsService) {
  const manage = guards.role(...MANAGER_ROLES);

  app.get(
    '/api/automations',
    { onRequest: manage, schema: { querystring: listAutomationsQuery } },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return service.list(request.query);
    },
  );
  app.post(
    '/api/automations',
    { onRequest: manage, schema: { querystring: noQuery, body: createAutomationBody } },
    async (request, reply) => {
      reply.code(201);
      return service.create(callerOf(request), request.body);
    },
  );
  app.get('/api/automations/location', { onRequest: manage, schema: { querystring: noQuery } }, () =>
    service.location(),
  );
  app.put(
    '/api/automations/location',
    { onRequest: guards.role('admin'), schema: { querystring: noQuery, body: locationBody } },
    (request) => service.setLocation(request.body),
  );
  app.get(
    '/api/automations/:id',
    { onRequest: manage, schema: { params: idParams, querystring: noQuery } },
    async (request) => service.view(await service.get(request.params.id)),
  );
  app.patch(
    '/api/automations/:id',
    { onRequest: manage, schema: { params: idParams, querystring: noQuery, body: updateAutomationBody } },
    (request) => service.update(callerOf(request), request.params.id, request.body),
  );
  app.delete(
    '/api/automations/:id',
    { onRequest: manage, schema: { params: idParams, querystring: noQuery, body: noBody } },
    async (request, reply) => {
      await service.delete(request.params.id);
      return reply.code(204).send();
    },
  );
  app.post(
    '/api/automations/:id/run',
    { onRequest: manage, schema: { params: idParams, querystring: noQuery, body: noBody } },
    async (request, reply) => {
      reply.code(202);
      return service.run(callerOf(request), request.params.id);
    },
  );
  app.get(
    '/api/automations/:id/runs',
    { onRequest: manage, schema: { params: idParams, querystring: noQuery } },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return service.runs(request.params.id);
    },
  );
}

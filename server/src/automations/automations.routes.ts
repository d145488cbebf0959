import { type Automation, MANAGER_ROLES } from '@hearth/contracts';
import { type ActivityLog, trackRequests } from '../activity/index.js';
import type { HttpApp } from '../http/http-app.js';
import { idParams, noBody, noQuery } from '../http/validation.js';
import { callerOf, type Guards } from '../users/index.js';
import { namedDevices } from './automations.reach.js';
import {
  createAutomationBody,
  listAutomationsQuery,
  locationBody,
  updateAutomationBody,
} from './automations.schemas.js';
import type { AutomationsService } from './automations.service.js';

/** How many of an automation's devices its activity entry names. */
const LOGGED = 50;

/** What an `automation.*` entry says (docs/activity.md#kinds): the automation and the devices it names. */
const automationDetail = (
  automation: Pick<Automation, 'name' | 'triggers' | 'conditions' | 'actions'> & { id?: string },
) => {
  const devices = namedDevices(automation);
  return {
    ...(automation.id ? { automation_id: automation.id } : {}),
    name: automation.name,
    device_ids: devices.slice(0, LOGGED),
    count: devices.length,
  };
};

/** docs/automations.md#api: residents and admins (a `user` gets 403); the location is set by admins. */
export function registerAutomationsRoutes(
  app: HttpApp,
  guards: Guards,
  service: AutomationsService,
  activity: ActivityLog,
) {
  const manage = guards.role(...MANAGER_ROLES);
  const logged = trackRequests(activity, callerOf);
  const named = (automation: Parameters<typeof automationDetail>[0]) => ({
    detail: automationDetail(automation),
  });

  app.get(
    '/api/automations',
    { onRequest: manage, schema: { querystring: listAutomationsQuery } },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return service.list(callerOf(request), request.query);
    },
  );
  app.post(
    '/api/automations',
    { onRequest: manage, schema: { querystring: noQuery, body: createAutomationBody } },
    async (request, reply) => {
      reply.code(201);
      return logged(
        request,
        { kind: 'automation.create', detail: automationDetail(request.body) },
        () => service.create(callerOf(request), request.body),
        named,
      );
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
    async (request) => service.view(await service.seen(callerOf(request), request.params.id)),
  );
  app.patch(
    '/api/automations/:id',
    { onRequest: manage, schema: { params: idParams, querystring: noQuery, body: updateAutomationBody } },
    (request) =>
      logged(
        request,
        { kind: 'automation.update', detail: { automation_id: request.params.id } },
        () => service.update(callerOf(request), request.params.id, request.body),
        named,
      ),
  );
  app.delete(
    '/api/automations/:id',
    { onRequest: manage, schema: { params: idParams, querystring: noQuery, body: noBody } },
    async (request, reply) => {
      await logged(
        request,
        { kind: 'automation.delete', detail: { automation_id: request.params.id } },
        () => service.delete(callerOf(request), request.params.id),
        named,
      );
      return reply.code(204).send();
    },
  );
  app.post(
    '/api/automations/:id/run',
    { onRequest: manage, schema: { params: idParams, querystring: noQuery, body: noBody } },
    async (request, reply) => {
      reply.code(202);
      const { answer } = await logged(
        request,
        { kind: 'automation.run', detail: { automation_id: request.params.id } },
        () => service.run(callerOf(request), request.params.id),
        ({ automation }) => named(automation),
      );
      return answer;
    },
  );
  app.get(
    '/api/automations/:id/runs',
    { onRequest: manage, schema: { params: idParams, querystring: noQuery } },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return service.runs(callerOf(request), request.params.id);
    },
  );
}

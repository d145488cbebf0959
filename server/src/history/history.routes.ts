import { MANAGER_ROLES } from '@hearth/contracts';
import type { FastifyRequest } from 'fastify';
import { type ActivityLog, trackRequests } from '../activity/index.js';
import type { ReachSource } from '../devicehub/index.js';
import type { HttpApp } from '../http/http-app.js';
import { idParams, noQuery } from '../http/validation.js';
import { callerOf, type Guards } from '../users/index.js';
import { exclusionsBody, historyExportQuery, historyQuery } from './history.schemas.js';
import type { HistoryService } from './history.service.js';

const BODY_LIMIT = 64 * 1024;
/** How many excluded properties an activity entry names. */
const LOGGED = 50;

/**
 * GET /api/history, GET /api/history/export (CSV), GET and PUT /api/history/exclusions/:id
 * (docs/history.md#api). Whoever may view the device may read its history (docs/access.md); the
 * recording settings (exclusions) stay residents' and admins', within their reach.
 */
export function registerHistoryRoutes(
  app: HttpApp,
  guards: Guards,
  service: HistoryService,
  reaches: ReachSource,
  activity: ActivityLog,
) {
  const onRequest = guards.role(...MANAGER_ROLES);
  const readers = guards.user;
  const reachOf = (request: FastifyRequest) => () => reaches.reachOf(callerOf(request));
  /** Runs the change and leaves one activity entry with its outcome (docs/activity.md#kinds). */
  const logged = trackRequests(activity, callerOf);

  app.get(
    '/api/history',
    { onRequest: readers, schema: { querystring: historyQuery } },
    async (request, reply) => {
      const json = await service.answer(callerOf(request).id, request.query, reachOf(request));
      return reply.header('cache-control', 'no-store').type('application/json; charset=utf-8').send(json);
    },
  );

  app.get(
    '/api/history/export',
    { onRequest: readers, schema: { querystring: historyExportQuery } },
    async (request, reply) => {
      const { filename, body } = await service.export(callerOf(request).id, request.query, reachOf(request));
      reply
        .header('cache-control', 'no-store')
        .header('content-disposition', `attachment; filename="${filename}.csv"`)
        .type('text/csv; charset=utf-8');
      return reply.send(body);
    },
  );

  app.get(
    '/api/history/exclusions/:id',
    { onRequest, schema: { params: idParams, querystring: noQuery } },
    async (request) => service.exclusions(request.params.id, await reachOf(request)()),
  );

  app.put(
    '/api/history/exclusions/:id',
    {
      onRequest,
      bodyLimit: BODY_LIMIT,
      schema: { params: idParams, querystring: noQuery, body: exclusionsBody },
    },
    (request) =>
      logged(
        request,
        {
          kind: 'history.exclusions',
          device_id: request.params.id,
          detail: { device: request.body.device, properties: request.body.properties.slice(0, LOGGED) },
        },
        async () => service.setExclusions(request.params.id, request.body, await reachOf(request)()),
        (exclusions) => ({
          detail: { device: exclusions.device, properties: exclusions.properties.slice(0, LOGGED) },
        }),
      ),
  );
}

import { MANAGER_ROLES } from '@hearth/contracts';
import type { ReachSource } from '../devicehub/index.js';
import type { HttpApp } from '../http/http-app.js';
import { idParams, noQuery } from '../http/validation.js';
import { callerOf, type Guards } from '../users/index.js';
import { exclusionsBody, historyExportQuery, historyQuery } from './history.schemas.js';
import type { HistoryService } from './history.service.js';

const BODY_LIMIT = 64 * 1024;

/**
 * GET /api/history, GET /api/history/export (CSV), GET and PUT /api/history/exclusions/:id
 * (docs/history.md#api). Whoever may view the device may read its history (docs/access.md); the
 * recording settings (exclusions) stay residents' and admins'.
 */
export function registerHistoryRoutes(
  app: HttpApp,
  guards: Guards,
  service: HistoryService,
  reaches: ReachSource,
) {
  const onRequest = guards.role(...MANAGER_ROLES);
  const readers = guards.user;

  app.get(
    '/api/history',
    { onRequest: readers, schema: { querystring: historyQuery } },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return service.query(request.query, await reaches.reachOf(callerOf(request)));
    },
  );

  app.get(
    '/api/history/export',
    { onRequest: readers, schema: { querystring: historyExportQuery } },
    async (request, reply) => {
      const { filename, body } = await service.export(
        request.query,
        await reaches.reachOf(callerOf(request)),
      );
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
    async (request) => service.exclusions(request.params.id),
  );

  app.put(
    '/api/history/exclusions/:id',
    {
      onRequest,
      bodyLimit: BODY_LIMIT,
      schema: { params: idParams, querystring: noQuery, body: exclusionsBody },
    },
    async (request) => service.setExclusions(request.params.id, request.body),
  );
}

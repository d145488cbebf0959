import type { FastifyRequest } from 'fastify';
import type { HttpApp } from '../http/http-app.js';
import { activityExportQuery, activityQuery } from './activity.schemas.js';
import type { ActivityService, ActivityViewer } from './activity.service.js';

/** An `onRequest` hook that sets `request.caller` (the users domain's guards). */
export type ActivityGuard = (request: FastifyRequest) => Promise<void>;

const viewerOf = (request: FastifyRequest): ActivityViewer => {
  const caller = request.caller;
  if (!caller) throw new Error(`${request.routeOptions.url} has no guard setting the caller`);
  return caller;
};

/**
 * GET /api/activity and GET /api/activity/export (CSV) (docs/activity.md#api). Every signed-in
 * role may call them; the service narrows what each reads.
 */
export function registerActivityRoutes(app: HttpApp, signedIn: ActivityGuard, service: ActivityService) {
  app.get(
    '/api/activity',
    { onRequest: signedIn, schema: { querystring: activityQuery } },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return service.list(viewerOf(request), request.query);
    },
  );

  app.get(
    '/api/activity/export',
    { onRequest: signedIn, schema: { querystring: activityExportQuery } },
    async (request, reply) => {
      const body = await service.export(viewerOf(request), request.query);
      const day = new Date().toISOString().slice(0, 10);
      reply
        .header('cache-control', 'no-store')
        .header('content-disposition', `attachment; filename="hearth-activity-${day}.csv"`)
        .type('text/csv; charset=utf-8');
      return reply.send(body);
    },
  );
}

import { type ActivityLog, originOf, tracked, userActor } from '../../activity/index.js';
import type { HttpApp } from '../../http/http-app.js';
import { noQuery } from '../../http/validation.js';
import { callerOf, type Guards } from '../../users/index.js';
import { forgetBody, sourceParams } from './sources.schemas.js';
import type { SourcesService } from './sources.service.js';

/**
 * For admins (docs/api.md#sources): GET /api/devicehub/sources (each source on or off, its devices,
 * last message and what it refused) and POST /api/devicehub/sources/:protocol/forget (clears a
 * retained config on the bus; a `source.forget` activity entry).
 */
export function registerSourcesRoutes(
  app: HttpApp,
  guards: Guards,
  service: SourcesService,
  activity: ActivityLog,
) {
  const onRequest = guards.role('admin');

  app.get(
    '/api/devicehub/sources',
    { onRequest, schema: { querystring: noQuery } },
    async (_request, reply) => {
      reply.header('cache-control', 'no-store');
      return service.list();
    },
  );

  app.post(
    '/api/devicehub/sources/:protocol/forget',
    { onRequest, schema: { params: sourceParams, querystring: noQuery, body: forgetBody } },
    async (request) => {
      const { protocol } = request.params;
      const { topic } = request.body;
      const entry = {
        actor: userActor(callerOf(request)),
        ...originOf(request),
        kind: 'source.forget' as const,
        detail: { source: protocol, topic },
      };
      return tracked(activity, entry, () => service.forget(protocol, topic));
    },
  );
}

import { type ActivityLog, trackRequests } from '../activity/index.js';
import type { HttpApp } from '../http/http-app.js';
import { idParams, noBody, noQuery } from '../http/validation.js';
import { callerOf, type Guards } from '../users/index.js';
import type { LiveNotifications } from './notifications.live.js';
import { notificationsQuery, preferencesBody } from './notifications.schemas.js';
import type { NotificationsService } from './notifications.service.js';

/** docs/alerts.md#api: the inbox, its live stream, acknowledging, and each person's channels. */
export function registerNotificationsRoutes(
  app: HttpApp,
  guards: Guards,
  service: NotificationsService,
  live: LiveNotifications,
  activity: ActivityLog,
) {
  const signedIn = guards.user;
  const logged = trackRequests(activity, callerOf);
  const privately = { 'cache-control': 'no-store' };

  app.get(
    '/api/notifications',
    { onRequest: signedIn, schema: { querystring: notificationsQuery } },
    async (request, reply) => {
      reply.headers(privately);
      return service.list(callerOf(request), request.query);
    },
  );
  app.get(
    '/api/notifications/stream',
    { onRequest: signedIn, schema: { querystring: noQuery } },
    (request, reply) => {
      const caller = callerOf(request);
      live.open(request, reply, { id: caller.id, role: caller.role });
    },
  );
  app.post(
    '/api/notifications/read-all',
    { onRequest: signedIn, schema: { querystring: noQuery, body: noBody } },
    (request) => service.markAllRead(callerOf(request)),
  );
  app.post(
    '/api/notifications/:id/read',
    { onRequest: signedIn, schema: { params: idParams, querystring: noQuery, body: noBody } },
    (request) => service.markRead(callerOf(request), request.params.id),
  );
  app.post(
    '/api/notifications/:id/acknowledge',
    { onRequest: signedIn, schema: { params: idParams, querystring: noQuery, body: noBody } },
    async (request) => {
      const { view } = await logged(
        request,
        { kind: 'alert.acknowledge', detail: { notification_id: request.params.id } },
        () => service.acknowledge(callerOf(request), request.params.id),
        ({ notice }) => ({
          ...(notice.device_id ? { device_id: notice.device_id } : {}),
          ...(notice.room_id ? { room_id: notice.room_id } : {}),
          detail: {
            notification_id: request.params.id,
            incident_id: notice.id,
            kind: notice.kind,
            severity: notice.severity,
            title: notice.title,
          },
        }),
      );
      return view;
    },
  );
  app.get(
    '/api/notifications/preferences',
    { onRequest: signedIn, schema: { querystring: noQuery } },
    async (request, reply) => {
      reply.headers(privately);
      return service.preferences(callerOf(request));
    },
  );
  app.put(
    '/api/notifications/preferences',
    { onRequest: signedIn, schema: { querystring: noQuery, body: preferencesBody } },
    (request) => service.setPreferences(callerOf(request), request.body),
  );
}

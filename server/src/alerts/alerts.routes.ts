import { MANAGER_ROLES } from '@hearth/contracts';
import { type ActivityLog, trackRequests } from '../activity/index.js';
import type { HttpApp } from '../http/http-app.js';
import { idParams, noQuery } from '../http/validation.js';
import { callerOf, type Guards } from '../users/index.js';
import { muteBody, settingsBody } from './alerts.schemas.js';
import type { AlertsService } from './alerts.service.js';

/** docs/alerts.md#api: the rules' settings and per-device mutes. */
export function registerAlertsRoutes(
  app: HttpApp,
  guards: Guards,
  service: AlertsService,
  activity: ActivityLog,
) {
  const logged = trackRequests(activity, callerOf);

  app.get('/api/alerts/settings', { onRequest: guards.user, schema: { querystring: noQuery } }, () =>
    service.settings(),
  );
  app.put(
    '/api/alerts/settings',
    { onRequest: guards.role('admin'), schema: { querystring: noQuery, body: settingsBody } },
    (request) =>
      logged(request, { kind: 'alert.settings', detail: { ...request.body } }, () =>
        service.changeSettings(request.body),
      ),
  );
  app.get('/api/alerts/devices', { onRequest: guards.user, schema: { querystring: noQuery } }, (request) =>
    service.mutes(callerOf(request)),
  );
  app.put(
    '/api/alerts/devices/:id',
    {
      onRequest: guards.role(...MANAGER_ROLES),
      schema: { params: idParams, querystring: noQuery, body: muteBody },
    },
    (request) =>
      logged(
        request,
        { kind: 'alert.mute', device_id: request.params.id, detail: { muted: request.body.muted } },
        () => service.setMuted(callerOf(request), request.params.id, request.body.muted),
      ),
  );
}

import type { HttpApp } from '../http/http-app.js';
import { noQuery } from '../http/validation.js';
import { callerOf, type Guards } from './caller.js';
import type { PreferencesRepository } from './preferences.repository.js';
import { preferencesBody } from './preferences.schemas.js';

/** GET and PATCH /api/auth/preferences (docs/api.md#preferences): the caller's own, whatever their role. */
export function registerPreferencesRoutes(app: HttpApp, guards: Guards, preferences: PreferencesRepository) {
  app.get('/api/auth/preferences', { onRequest: guards.user, schema: { querystring: noQuery } }, (request) =>
    preferences.get(callerOf(request).id),
  );
  app.patch(
    '/api/auth/preferences',
    { onRequest: guards.user, schema: { querystring: noQuery, body: preferencesBody } },
    (request) => preferences.update(callerOf(request).id, request.body),
  );
}

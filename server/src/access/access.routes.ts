import { type ActivityLog, originOf, tracked, userActor } from '../activity/index.js';
import type { HttpApp } from '../http/http-app.js';
import { idParams, noQuery } from '../http/validation.js';
import { callerOf, type Guards } from '../users/index.js';
import { accessRulesBody } from './access.schemas.js';
import type { AccessChange, AccessService } from './access.service.js';

/** Bodies of up to MAX_RULES rooms and devices each. */
const BODY_LIMIT = 1024 * 1024;
/** How many of a change's entries its activity entry names. */
const LOGGED = 50;

const firstEntries = (entries: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(entries).slice(0, LOGGED));

/** What an `access.change` entry says: whose rules, and what changed (the first 50 of each). */
const changeDetail = (userId: string, change: AccessChange) => ({
  user_id: userId,
  rooms: firstEntries(change.rooms),
  devices: firstEntries(change.devices),
  count: Object.keys(change.rooms).length + Object.keys(change.devices).length,
});

/** docs/access.md#api: GET and PUT /api/access/{user_id}. */
export function registerAccessRoutes(
  app: HttpApp,
  guards: Guards,
  service: AccessService,
  activity: ActivityLog,
) {
  app.get(
    '/api/access/:id',
    { onRequest: guards.user, schema: { params: idParams, querystring: noQuery } },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return service.get(callerOf(request), request.params.id);
    },
  );
  app.put(
    '/api/access/:id',
    {
      onRequest: guards.user,
      bodyLimit: BODY_LIMIT,
      schema: { params: idParams, querystring: noQuery, body: accessRulesBody },
    },
    async (request) => {
      const entry = {
        actor: userActor(callerOf(request)),
        ...originOf(request),
        kind: 'access.change' as const,
        detail: { user_id: request.params.id },
      };
      const { rules } = await tracked(
        activity,
        entry,
        () => service.replace(callerOf(request), request.params.id, request.body),
        ({ change }) => ({ detail: changeDetail(request.params.id, change) }),
      );
      return rules;
    },
  );
}

import { MANAGER_ROLES } from '@hearth/contracts';
import { type ActivityLog, originOf, tracked, userActor } from '../activity/index.js';
import type { HttpApp } from '../http/http-app.js';
import { idParams, noQuery } from '../http/validation.js';
import { callerOf, type Guards } from './caller.js';
import { listUsersQuery, lockoutBody, updateUserBody } from './users.schemas.js';
import type { UsersService } from './users.service.js';

/** GET /api/auth/users, PATCH /api/auth/users/:id, POST /api/auth/users/:id/lockout (docs/api.md#accounts). */
export function registerUsersRoutes(
  app: HttpApp,
  guards: Guards,
  service: UsersService,
  activity: ActivityLog,
) {
  const staff = guards.role(...MANAGER_ROLES);

  app.get('/api/auth/users', { onRequest: staff, schema: { querystring: listUsersQuery } }, (request) =>
    service.list(request.query),
  );

  app.patch(
    '/api/auth/users/:id',
    { onRequest: guards.user, schema: { params: idParams, querystring: noQuery, body: updateUserBody } },
    (request) => {
      const update = () => service.update(callerOf(request), request.params.id, request.body);
      const { role, reset_access: reset } = request.body;
      // A role change is recorded (docs/activity.md#kinds); a change of names is not.
      if (role === undefined) return update();
      const entry = {
        actor: userActor(callerOf(request)),
        ...originOf(request),
        kind: 'user.role' as const,
        detail: { user_id: request.params.id, role, ...(reset ? { reset_access: true } : {}) },
      };
      return tracked(activity, entry, update, (user) => ({
        detail: { user_id: user.id, email: user.email, role, ...(reset ? { reset_access: true } : {}) },
      }));
    },
  );

  app.post(
    '/api/auth/users/:id/lockout',
    { onRequest: staff, schema: { params: idParams, querystring: noQuery, body: lockoutBody } },
    (request) => {
      const entry = {
        actor: userActor(callerOf(request)),
        ...originOf(request),
        kind: request.body ? ('user.lock' as const) : ('user.unlock' as const),
        detail: { user_id: request.params.id },
      };
      return tracked(
        activity,
        entry,
        () => service.setLock(callerOf(request), request.params.id, request.body),
        (user) => ({ detail: { user_id: user.id, email: user.email } }),
      );
    },
  );
}

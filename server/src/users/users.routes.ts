import { MANAGER_ROLES } from '@hearth/contracts';
import type { HttpApp } from '../http/http-app.js';
import { idParams, noQuery } from '../http/validation.js';
import { callerOf, type Guards } from './caller.js';
import { listUsersQuery, lockoutBody, updateUserBody } from './users.schemas.js';
import type { UsersService } from './users.service.js';

/** GET /api/auth/users, PATCH /api/auth/users/:id, POST /api/auth/users/:id/lockout (docs/api.md#accounts). */
export function registerUsersRoutes(app: HttpApp, guards: Guards, service: UsersService) {
  const staff = guards.role(...MANAGER_ROLES);

  app.get('/api/auth/users', { onRequest: staff, schema: { querystring: listUsersQuery } }, (request) =>
    service.list(request.query),
  );

  app.patch(
    '/api/auth/users/:id',
    { onRequest: guards.user, schema: { params: idParams, querystring: noQuery, body: updateUserBody } },
    (request) => service.update(callerOf(request), request.params.id, request.body),
  );

  app.post(
    '/api/auth/users/:id/lockout',
    { onRequest: staff, schema: { params: idParams, querystring: noQuery, body: lockoutBody } },
    (request) => service.setLock(callerOf(request), request.params.id, request.body),
  );
}

import type { PushKey } from '@hearth/contracts';
import { HttpError } from '../http/errors.js';
import type { HttpApp } from '../http/http-app.js';
import { noQuery } from '../http/validation.js';
import { callerOf, type Guards } from '../users/index.js';
import { checkEndpoint } from './push.endpoint.js';
import { PUSH_ERRORS as E } from './push.errors.js';
import type { PushRepository } from './push.repository.js';
import { subscriptionBody, unsubscribeBody } from './push.schemas.js';

/** docs/alerts.md#web-push: the public key, and the caller's own subscriptions. */
export function registerPushRoutes(
  app: HttpApp,
  guards: Guards,
  repository: PushRepository,
  options: { allowPrivate: boolean },
) {
  app.get(
    '/api/push/key',
    { onRequest: guards.user, schema: { querystring: noQuery } },
    async (): Promise<PushKey> => {
      const keys = await repository.keys();
      return { public_key: keys.publicKey };
    },
  );
  app.post(
    '/api/push/subscriptions',
    { onRequest: guards.user, schema: { querystring: noQuery, body: subscriptionBody } },
    async (request, reply) => {
      const endpoint = await checkEndpoint(request.body.endpoint, options);
      await repository.save({ endpoint, user_id: callerOf(request).id, keys: request.body.keys });
      reply.code(201);
      return { endpoint };
    },
  );
  app.delete(
    '/api/push/subscriptions',
    { onRequest: guards.user, schema: { querystring: noQuery, body: unsubscribeBody } },
    async (request, reply) => {
      if (!(await repository.remove(callerOf(request).id, request.body.endpoint)))
        throw new HttpError(404, E.notFound);
      return reply.code(204).send();
    },
  );
}

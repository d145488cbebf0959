import { type DeviceCallResult, MANAGER_ROLES } from '@hearth/contracts';
import { type ActivityLog, originOf, trackRequests } from '../activity/index.js';
import { DevicehubMessages, deviceCommandBody } from '../devicehub/index.js';
import type { HttpApp } from '../http/http-app.js';
import { perAddressLimit } from '../http/rate-limit.js';
import { idParams, noBody, noQuery } from '../http/validation.js';
import { callerOf, type Guards } from '../users/index.js';
import { createPassBody, tokenDeviceParams, tokenParams, updatePassBody } from './passes.schemas.js';
import type { PassesService } from './passes.service.js';

/** docs/passes.md#rate-limit: look-ups by token per client address per minute. */
export const PASS_LOOKUPS_PER_MINUTE = 120;
/** The window the page's calls and its stream's CONNECTs count into, per address. */
export const PASS_LOOKUP_SCOPE = 'pass';
export const PASS_LOOKUP_WINDOW_MS = 60_000;

const ok = <T>(data: T): DeviceCallResult<T> => ({ success: true, data, error: null });

/**
 * docs/passes.md#api: the managers' calls (GET/POST /api/passes, PATCH/DELETE /api/passes/:id) and
 * the guest page's (GET /api/pass/:token, GET /api/pass/:token/devices, POST
 * /api/pass/:token/devices/:id/commands), which take no session at all: the token is the key.
 */
export function registerPassesRoutes(
  app: HttpApp,
  guards: Guards,
  service: PassesService,
  activity: ActivityLog,
) {
  const manage = guards.role(...MANAGER_ROLES);
  const logged = trackRequests(activity, callerOf);

  app.get('/api/passes', { onRequest: manage, schema: { querystring: noQuery } }, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    return service.list(callerOf(request));
  });
  app.post(
    '/api/passes',
    { onRequest: manage, schema: { querystring: noQuery, body: createPassBody } },
    async (request, reply) => {
      const { body } = request;
      reply.code(201).header('cache-control', 'no-store');
      const detail = {
        label: body.label,
        level: body.level,
        rooms: body.rooms,
        devices: body.devices.slice(0, 50),
        starts_at: body.starts_at ?? null,
        ends_at: body.ends_at ?? null,
        schedule: body.schedule ?? null,
      };
      return logged(
        request,
        { kind: 'pass.create', detail },
        () => service.create(callerOf(request), body),
        (pass) => ({ detail: { ...detail, pass_id: pass.id } }),
      );
    },
  );
  app.patch(
    '/api/passes/:id',
    { onRequest: manage, schema: { params: idParams, querystring: noQuery, body: updatePassBody } },
    (request) =>
      logged(
        request,
        { kind: 'pass.change', detail: { pass_id: request.params.id, paused: request.body.paused } },
        () => service.setPaused(callerOf(request), request.params.id, request.body.paused),
      ),
  );
  app.delete(
    '/api/passes/:id',
    { onRequest: manage, schema: { params: idParams, querystring: noQuery, body: noBody } },
    async (request, reply) => {
      await logged(request, { kind: 'pass.revoke', detail: { pass_id: request.params.id } }, () =>
        service.revoke(callerOf(request), request.params.id),
      );
      return reply.code(204).send();
    },
  );

  // The guest's page: no session; every call counts against the address's look-ups.
  const limited = perAddressLimit(PASS_LOOKUPS_PER_MINUTE, PASS_LOOKUP_WINDOW_MS, PASS_LOOKUP_SCOPE);
  const privately = { 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' };
  app.get(
    '/api/pass/:token',
    { config: limited, schema: { params: tokenParams, querystring: noQuery } },
    async (request, reply) => {
      reply.headers(privately);
      return service.info(request.params.token);
    },
  );
  app.get(
    '/api/pass/:token/devices',
    { config: limited, schema: { params: tokenParams, querystring: noQuery } },
    async (request, reply) => {
      reply.headers(privately);
      return service.devices(request.params.token, originOf(request));
    },
  );
  app.post(
    '/api/pass/:token/devices/:id/commands',
    {
      config: {
        ...limited,
        resultEnvelope: true,
        messages: {
          malformedBody: DevicehubMessages.invalidCommand,
          emptyBody: DevicehubMessages.missingCommand,
        },
      },
      bodyLimit: 64 * 1024,
      schema: { params: tokenDeviceParams, querystring: noQuery, body: deviceCommandBody },
    },
    async (request, reply) => {
      reply.headers(privately);
      const { token, id } = request.params;
      return ok(await service.command(token, id, request.body, originOf(request)));
    },
  );
}

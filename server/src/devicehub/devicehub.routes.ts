import type { DeviceCallResult } from '@hearth/contracts';
import type { FastifyError, FastifyInstance, FastifyReply } from 'fastify';
import type { AppContext } from '../app.js';
import type { BusWatch } from './bus-watch.js';
import { DevicehubError, DevicehubMessages } from './devicehub.errors.js';
import type { DeviceHubService } from './devicehub.service.js';

const BODY_LIMIT = 64 * 1024;

async function answer<T>(reply: FastifyReply, work: () => Promise<T>): Promise<DeviceCallResult<T>> {
  try {
    return { success: true, data: await work(), error: null };
  } catch (error) {
    if (!(error instanceof DevicehubError)) throw error;
    return reply.code(error.statusCode).send({ success: false, data: null, error: error.message });
  }
}

/** A body that is not JSON at all is a bad command, an empty one a missing command (SPEC 8.7). */
const commandBodyErrors = (error: FastifyError, _request: unknown, reply: FastifyReply) => {
  if (error.code === 'FST_ERR_CTP_EMPTY_JSON_BODY')
    return reply.code(400).send({ success: false, data: null, error: DevicehubMessages.missingCommand });
  if (error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || error instanceof SyntaxError)
    return reply.code(400).send({ success: false, data: null, error: DevicehubMessages.invalidCommand });
  throw error;
};

/**
 * GET /api/devicehub/status (is the device bus up, since when), GET /api/devicehub/devices, PATCH /api/devicehub/devices/:id, POST …/:id/commands (SPEC 7.2);
 * for admins GET and DELETE /api/devicehub/devices/removed (and …/removed/:id): devices that left
 * their ecosystem's list, kept with their ids until purged.
 */
export function registerDevicehubRoutes(
  app: FastifyInstance,
  context: AppContext,
  service: DeviceHubService,
  watch: BusWatch,
) {
  const preHandler = context.auth.requireRole('resident', 'admin');

  const adminOnly = context.auth.requireRole('admin');

  app.get('/api/devicehub/devices', { preHandler }, async () => service.list());
  app.get('/api/devicehub/status', { preHandler }, async (_request, reply) => {
    reply.header('cache-control', 'no-store');
    return watch.status();
  });

  app.get('/api/devicehub/devices/removed', { preHandler: adminOnly }, async () => service.removedDevices());
  app.delete('/api/devicehub/devices/removed', { preHandler: adminOnly }, async (_request, reply) =>
    answer(reply, () => service.purgeRemoved()),
  );
  app.delete<{ Params: { id: string } }>(
    '/api/devicehub/devices/removed/:id',
    { preHandler: adminOnly },
    async (request, reply) => answer(reply, () => service.purgeRemoved(request.params.id)),
  );

  app.patch<{ Params: { id: string }; Body: unknown }>(
    '/api/devicehub/devices/:id',
    { preHandler, bodyLimit: BODY_LIMIT },
    async (request, reply) => {
      const body = request.body;
      const name = typeof body === 'object' && body !== null ? (body as { name?: unknown }).name : undefined;
      return answer(reply, () => service.rename(request.params.id, name));
    },
  );

  app.post<{ Params: { id: string }; Body: unknown }>(
    '/api/devicehub/devices/:id/commands',
    { preHandler, bodyLimit: BODY_LIMIT, errorHandler: commandBodyErrors },
    async (request, reply) => answer(reply, () => service.command(request.params.id, request.body)),
  );
}

import type { FastifyRequest } from 'fastify';
import { type ActivityLog, trackRequests } from '../activity/index.js';
import type { ReachSource } from '../devicehub/index.js';
import type { HttpApp } from '../http/http-app.js';
import { idParams, noBody, noQuery } from '../http/validation.js';
import { callerOf, type Guards } from '../users/index.js';
import { ROOM_ACCESS } from './rooms.policy.js';
import {
  createFloorBody,
  createRoomBody,
  deviceIdsBody,
  updateFloorBody,
  updateRoomBody,
} from './rooms.schemas.js';
import type { RoomsService } from './rooms.service.js';

/** Bodies of up to MAX_DEVICE_IDS ids. */
const BODY_LIMIT = 512 * 1024;

/**
 * docs/rooms.md#api: GET/POST /api/rooms, PATCH/DELETE /api/rooms/:id, the same under /api/floors,
 * PUT /api/rooms/:id/devices, PUT /api/rooms/unassigned/devices, GET/PUT /api/favourites.
 */
export function registerRoomsRoutes(
  app: HttpApp,
  guards: Guards,
  service: RoomsService,
  activity: ActivityLog,
  reaches: ReachSource,
) {
  const reachOf = (request: FastifyRequest) => reaches.reachOf(callerOf(request));
  /** Runs the change and leaves one activity entry with its outcome (docs/activity.md#kinds). */
  const logged = trackRequests(activity, callerOf);
  /** An assignment names its devices (the first 50) and, for one device, its id. */
  const assigned = (roomId: string | null, ids: string[]) => ({
    kind: 'room.assign' as const,
    ...(roomId ? { room_id: roomId } : {}),
    ...(ids.length === 1 ? { device_id: ids[0] } : {}),
    detail: { room_id: roomId, device_ids: ids.slice(0, 50), count: ids.length },
  });
  const see = guards.role(...ROOM_ACCESS.see);
  const manage = guards.role(...ROOM_ACCESS.manage);
  const favourites = guards.role(...ROOM_ACCESS.favourites);

  app.get('/api/rooms', { onRequest: see, schema: { querystring: noQuery } }, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    return service.list(callerOf(request), await reachOf(request));
  });
  app.post(
    '/api/rooms',
    { onRequest: manage, schema: { querystring: noQuery, body: createRoomBody } },
    async (request, reply) => {
      reply.code(201);
      return logged(
        request,
        { kind: 'room.create', detail: { name: request.body.name } },
        async () => service.createRoom(callerOf(request), request.body, await reachOf(request)),
        (room) => ({ room_id: room.id }),
      );
    },
  );
  app.patch(
    '/api/rooms/:id',
    { onRequest: manage, schema: { params: idParams, querystring: noQuery, body: updateRoomBody } },
    (request) =>
      logged(
        request,
        {
          kind: request.body.name === undefined ? 'room.update' : 'room.rename',
          room_id: request.params.id,
          detail: { ...request.body },
        },
        async () =>
          service.updateRoom(callerOf(request), request.params.id, request.body, await reachOf(request)),
      ),
  );
  app.delete(
    '/api/rooms/:id',
    { onRequest: manage, schema: { params: idParams, querystring: noQuery, body: noBody } },
    async (request, reply) => {
      await logged(request, { kind: 'room.delete', room_id: request.params.id }, async () =>
        service.deleteRoom(callerOf(request), request.params.id, await reachOf(request)),
      );
      return reply.code(204).send();
    },
  );
  app.put(
    '/api/rooms/unassigned/devices',
    { onRequest: manage, bodyLimit: BODY_LIMIT, schema: { querystring: noQuery, body: deviceIdsBody } },
    (request) =>
      logged(request, assigned(null, request.body.device_ids), async () =>
        service.assign(callerOf(request), null, request.body.device_ids, await reachOf(request)),
      ),
  );
  app.put(
    '/api/rooms/:id/devices',
    {
      onRequest: manage,
      bodyLimit: BODY_LIMIT,
      schema: { params: idParams, querystring: noQuery, body: deviceIdsBody },
    },
    (request) =>
      logged(request, assigned(request.params.id, request.body.device_ids), async () =>
        service.assign(callerOf(request), request.params.id, request.body.device_ids, await reachOf(request)),
      ),
  );

  app.post(
    '/api/floors',
    { onRequest: manage, schema: { querystring: noQuery, body: createFloorBody } },
    async (request, reply) => {
      reply.code(201);
      return logged(
        request,
        { kind: 'floor.create', detail: { name: request.body.name } },
        () => service.createFloor(callerOf(request), request.body),
        (floor) => ({ detail: { name: floor.name, floor_id: floor.id } }),
      );
    },
  );
  app.patch(
    '/api/floors/:id',
    { onRequest: manage, schema: { params: idParams, querystring: noQuery, body: updateFloorBody } },
    (request) =>
      logged(
        request,
        { kind: 'floor.update', detail: { floor_id: request.params.id, ...request.body } },
        async () =>
          service.updateFloor(callerOf(request), request.params.id, request.body, await reachOf(request)),
      ),
  );
  app.delete(
    '/api/floors/:id',
    { onRequest: manage, schema: { params: idParams, querystring: noQuery, body: noBody } },
    async (request, reply) => {
      await logged(request, { kind: 'floor.delete', detail: { floor_id: request.params.id } }, async () =>
        service.deleteFloor(callerOf(request), request.params.id, await reachOf(request)),
      );
      return reply.code(204).send();
    },
  );

  app.get(
    '/api/favourites',
    { onRequest: favourites, schema: { querystring: noQuery } },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return service.favourites(callerOf(request), await reachOf(request));
    },
  );
  app.put(
    '/api/favourites',
    { onRequest: favourites, bodyLimit: BODY_LIMIT, schema: { querystring: noQuery, body: deviceIdsBody } },
    (request) => {
      const ids = request.body.device_ids;
      return logged(
        request,
        { kind: 'favourites.change', detail: { device_ids: ids.slice(0, 50), count: ids.length } },
        async () => service.setFavourites(callerOf(request), ids, await reachOf(request)),
      );
    },
  );
}

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
export function registerRoomsRoutes(app: HttpApp, guards: Guards, service: RoomsService) {
  const see = guards.role(...ROOM_ACCESS.see);
  const manage = guards.role(...ROOM_ACCESS.manage);
  const favourites = guards.role(...ROOM_ACCESS.favourites);

  app.get('/api/rooms', { onRequest: see, schema: { querystring: noQuery } }, async (_request, reply) => {
    reply.header('cache-control', 'no-store');
    return service.list();
  });
  app.post(
    '/api/rooms',
    { onRequest: manage, schema: { querystring: noQuery, body: createRoomBody } },
    async (request, reply) => {
      reply.code(201);
      return service.createRoom(callerOf(request), request.body);
    },
  );
  app.patch(
    '/api/rooms/:id',
    { onRequest: manage, schema: { params: idParams, querystring: noQuery, body: updateRoomBody } },
    (request) => service.updateRoom(callerOf(request), request.params.id, request.body),
  );
  app.delete(
    '/api/rooms/:id',
    { onRequest: manage, schema: { params: idParams, querystring: noQuery, body: noBody } },
    async (request, reply) => {
      await service.deleteRoom(callerOf(request), request.params.id);
      return reply.code(204).send();
    },
  );
  app.put(
    '/api/rooms/unassigned/devices',
    { onRequest: manage, bodyLimit: BODY_LIMIT, schema: { querystring: noQuery, body: deviceIdsBody } },
    (request) => service.assign(callerOf(request), null, request.body.device_ids),
  );
  app.put(
    '/api/rooms/:id/devices',
    {
      onRequest: manage,
      bodyLimit: BODY_LIMIT,
      schema: { params: idParams, querystring: noQuery, body: deviceIdsBody },
    },
    (request) => service.assign(callerOf(request), request.params.id, request.body.device_ids),
  );

  app.post(
    '/api/floors',
    { onRequest: manage, schema: { querystring: noQuery, body: createFloorBody } },
    async (request, reply) => {
      reply.code(201);
      return service.createFloor(callerOf(request), request.body);
    },
  );
  app.patch(
    '/api/floors/:id',
    { onRequest: manage, schema: { params: idParams, querystring: noQuery, body: updateFloorBody } },
    (request) => service.updateFloor(callerOf(request), request.params.id, request.body),
  );
  app.delete(
    '/api/floors/:id',
    { onRequest: manage, schema: { params: idParams, querystring: noQuery, body: noBody } },
    async (request, reply) => {
      await service.deleteFloor(callerOf(request), request.params.id);
      return reply.code(204).send();
    },
  );

  app.get(
    '/api/favourites',
    { onRequest: favourites, schema: { querystring: noQuery } },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return service.favourites(callerOf(request));
    },
  );
  app.put(
    '/api/favourites',
    { onRequest: favourites, bodyLimit: BODY_LIMIT, schema: { querystring: noQuery, body: deviceIdsBody } },
    (request) => service.setFavourites(callerOf(request), request.body.device_ids),
  );
}

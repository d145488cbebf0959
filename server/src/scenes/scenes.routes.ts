import { MANAGER_ROLES, type Scene } from '@hearth/contracts';
import { type ActivityLog, trackRequests, userActor } from '../activity/index.js';
import type { ReachSource } from '../devicehub/index.js';
import type { HttpApp } from '../http/http-app.js';
import { idParams, noBody, noQuery } from '../http/validation.js';
import { callerOf, type Guards } from '../users/index.js';
import { captureSceneBody, createSceneBody, updateSceneBody } from './scenes.schemas.js';
import type { ScenesService } from './scenes.service.js';

/** How many of a scene's devices its activity entry names. */
const LOGGED = 50;

/** What a `scene.*` entry says (docs/activity.md#kinds): the scene, its room and its devices. */
const sceneDetail = (scene: Pick<Scene, 'name' | 'room_id' | 'targets'> & { id?: string }) => ({
  ...(scene.id ? { scene_id: scene.id } : {}),
  name: scene.name,
  room_id: scene.room_id ?? null,
  device_ids: scene.targets.slice(0, LOGGED).map((target) => target.device_id),
  count: scene.targets.length,
});

/** docs/automations.md#api: residents and admins (a `user` gets 403). */
export function registerScenesRoutes(
  app: HttpApp,
  guards: Guards,
  service: ScenesService,
  reach: ReachSource,
  activity: ActivityLog,
) {
  const manage = guards.role(...MANAGER_ROLES);
  const logged = trackRequests(activity, callerOf);
  const editor = async (request: Parameters<typeof callerOf>[0]) => {
    const user = callerOf(request);
    return { id: user.id, reach: await reach.reachOf(user) };
  };
  const made = (scene: Scene) => ({ detail: sceneDetail(scene) });

  app.get('/api/scenes', { onRequest: manage, schema: { querystring: noQuery } }, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    return service.list(await editor(request));
  });
  app.post(
    '/api/scenes',
    { onRequest: manage, schema: { querystring: noQuery, body: createSceneBody } },
    async (request, reply) => {
      reply.code(201);
      const { body } = request;
      const detail = sceneDetail({ ...body, room_id: body.room_id ?? null });
      return logged(
        request,
        { kind: 'scene.create', detail },
        async () => service.create(await editor(request), body),
        made,
      );
    },
  );
  app.post(
    '/api/scenes/capture',
    { onRequest: manage, schema: { querystring: noQuery, body: captureSceneBody } },
    async (request, reply) => {
      reply.code(201);
      const { body } = request;
      const detail = {
        name: body.name,
        room_id: body.room_id ?? null,
        device_ids: body.device_ids.slice(0, LOGGED),
        count: body.device_ids.length,
      };
      return logged(
        request,
        { kind: 'scene.create', detail },
        async () => service.capture(await editor(request), body),
        made,
      );
    },
  );
  app.patch(
    '/api/scenes/:id',
    { onRequest: manage, schema: { params: idParams, querystring: noQuery, body: updateSceneBody } },
    (request) =>
      logged(
        request,
        { kind: 'scene.update', detail: { scene_id: request.params.id } },
        async () => service.update(await editor(request), request.params.id, request.body),
        made,
      ),
  );
  app.delete(
    '/api/scenes/:id',
    { onRequest: manage, schema: { params: idParams, querystring: noQuery, body: noBody } },
    async (request, reply) => {
      await logged(
        request,
        { kind: 'scene.delete', detail: { scene_id: request.params.id } },
        async () => service.delete(await editor(request), request.params.id),
        made,
      );
      return reply.code(204).send();
    },
  );
  app.post(
    '/api/scenes/:id/apply',
    { onRequest: manage, schema: { params: idParams, querystring: noQuery, body: noBody } },
    async (request) => {
      const user = callerOf(request);
      return service.apply({ actor: userActor(user), reach: await reach.reachOf(user) }, request.params.id);
    },
  );
}

import { type DeviceCallResult, isManager } from '@hearth/contracts';
import { type ActivityLog, originOf, tracked, userActor } from '../activity/index.js';
import type { BusProbeResult } from '../bus/bus-probe.js';
import type { HttpApp } from '../http/http-app.js';
import { idParams, noBody, noQuery } from '../http/validation.js';
import { callerOf, type Guards } from '../users/index.js';
import { BulkCommands } from './bulk-commands.js';
import type { BusWatch } from './bus-watch.js';
import { DevicehubMessages } from './devicehub.errors.js';
import {
  deviceBulkCommandBody,
  deviceCommandBody,
  deviceListQuery,
  deviceRenameBody,
} from './devicehub.schemas.js';
import type { DeviceHubService } from './devicehub.service.js';
import type { ReachSource } from './reach.js';

const BODY_LIMIT = 64 * 1024;

/** Device calls answer the wrapper of docs/api.md#result-wrapper-in-the-web-app, errors included (`config.resultEnvelope`). */
const ok = <T>(data: T): DeviceCallResult<T> => ({ success: true, data, error: null });
const config = {
  resultEnvelope: true,
  // A body that is not JSON at all is a bad command, an empty one a missing command (docs/strings.md#devices).
  messages: { malformedBody: DevicehubMessages.invalidCommand, emptyBody: DevicehubMessages.missingCommand },
};

/**
 * GET /api/devicehub/status (is the device bus up, since when), GET /api/devicehub/devices, PATCH
 * /api/devicehub/devices/:id, POST …/:id/commands (docs/api.md#devices), POST /api/devicehub/commands
 * (several devices, each confirmed by its state); for admins GET and DELETE
 * /api/devicehub/devices/removed (and …/removed/:id): devices that left their ecosystem's list,
 * kept with their ids until purged.
 */
export function registerDevicehubRoutes(
  app: HttpApp,
  guards: Guards,
  service: DeviceHubService,
  watch: BusWatch,
  busProbe: { readonly latest: BusProbeResult } | undefined,
  activity: ActivityLog,
  reaches: ReachSource,
) {
  // docs/access.md#where-it-is-enforced: any signed-in account; what it sees and may do is its reach's.
  const onRequest = guards.user;
  const adminOnly = guards.role('admin');

  // `?first=N`: the first screen in the page's order, so it can render before the whole list
  // arrives; `?ids=`: the devices a page shows first by id. A weak ETag from the list's version answers an unchanged list with 304.
  app.get(
    '/api/devicehub/devices',
    { onRequest, schema: { querystring: deviceListQuery } },
    async (request, reply) => {
      const { first, ids } = request.query;
      const reach = await reaches.reachOf(callerOf(request));
      // A handful of devices by id (the home page's favourites): small, not worth a tag.
      if (ids !== undefined) {
        reply.header('cache-control', 'private, no-cache');
        return service.visibleTo(reach, service.byIds(ids));
      }
      // A narrower reach lists other devices: its rules are part of the tag.
      const scope = reach.everything ? '' : `-r${reach.tag}`;
      const etag = `W/"${service.listTag()}${scope}${first === undefined ? '' : `-first${first}`}"`;
      reply.header('etag', etag).header('cache-control', 'private, no-cache');
      const asked = request.headers['if-none-match'];
      if (asked?.split(',').some((tag) => tag.trim() === etag)) return reply.status(304).send();
      return first === undefined
        ? service.visibleTo(reach, service.list())
        : service.visibleTo(reach, service.byName(), first);
    },
  );
  app.get(
    '/api/devicehub/status',
    { onRequest, schema: { querystring: noQuery } },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      // Admins also get the bus probe's verdict: they are the ones who can change the broker.
      if (busProbe && callerOf(request).role === 'admin') return { ...watch.status(), ...busProbe.latest };
      return watch.status();
    },
  );

  app.get(
    '/api/devicehub/devices/removed',
    { onRequest: adminOnly, schema: { querystring: noQuery } },
    async () => service.removedDevices(),
  );
  app.delete(
    '/api/devicehub/devices/removed',
    { onRequest: adminOnly, config, schema: { querystring: noQuery, body: noBody } },
    async () => ok(await service.purgeRemoved()),
  );
  app.delete(
    '/api/devicehub/devices/removed/:id',
    { onRequest: adminOnly, config, schema: { params: idParams, querystring: noQuery, body: noBody } },
    async (request) => ok(await service.purgeRemoved(request.params.id)),
  );

  app.patch(
    '/api/devicehub/devices/:id',
    {
      onRequest,
      config,
      bodyLimit: BODY_LIMIT,
      schema: { params: idParams, querystring: noQuery, body: deviceRenameBody },
    },
    async (request) => {
      const about = service.about(request.params.id);
      const entry = {
        actor: userActor(callerOf(request)),
        ...originOf(request),
        kind: 'device.rename' as const,
        ...about,
        detail: { ...about.detail, to: request.body.name },
      };
      const caller = callerOf(request);
      return ok(
        await tracked(activity, entry, async () =>
          service.rename(request.params.id, request.body.name, {
            reach: await reaches.reachOf(caller),
            manager: isManager(caller.role),
          }),
        ),
      );
    },
  );

  app.post(
    '/api/devicehub/devices/:id/commands',
    {
      onRequest,
      config,
      bodyLimit: BODY_LIMIT,
      schema: { params: idParams, querystring: noQuery, body: deviceCommandBody },
    },
    async (request) => {
      const caller = callerOf(request);
      const as = {
        actor: userActor(caller),
        origin: originOf(request),
        reach: () => reaches.reachOf(caller),
        admin: caller.role === 'admin',
      };
      return ok(await service.commandAs(as, request.params.id, request.body));
    },
  );

  // docs/devicehub.md#commands-to-several-devices: a room's All on / All off, a scene; answers
  // once every device's state confirmed its command or the wait is over.
  const bulk = new BulkCommands(service, activity);
  app.post(
    '/api/devicehub/commands',
    {
      onRequest,
      config,
      bodyLimit: BODY_LIMIT * 8,
      schema: { querystring: noQuery, body: deviceBulkCommandBody },
    },
    async (request) => {
      const caller = callerOf(request);
      const as = {
        actor: userActor(caller),
        origin: originOf(request),
        reach: await reaches.reachOf(caller),
        admin: caller.role === 'admin',
      };
      return ok(await bulk.run(as, request.body.commands));
    },
  );
}

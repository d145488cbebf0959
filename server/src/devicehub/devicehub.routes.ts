import type { DeviceCallResult } from '@hearth/contracts';
import type { HttpApp } from '../http/http-app.js';
import { idParams, noQuery } from '../http/validation.js';
import type { Guards } from '../users/index.js';
import { DevicehubMessages } from './devicehub.errors.js';
import { deviceCommandBody, deviceRenameBody } from './devicehub.schemas.js';
import type { DeviceHubService } from './devicehub.service.js';

const BODY_LIMIT = 64 * 1024;

/** Device calls answer SPEC 3.9's wrapper, errors included (`config.resultEnvelope`). */
const ok = <T>(data: T): DeviceCallResult<T> => ({ success: true, data, error: null });
const config = {
  resultEnvelope: true,
  // A body that is not JSON at all is a bad command, an empty one a missing command (SPEC 8.7).
  messages: { malformedBody: DevicehubMessages.invalidCommand, emptyBody: DevicehubMessages.missingCommand },
};

/** GET /api/devicehub/devices, PATCH /api/devicehub/devices/:id, POST …/:id/commands (SPEC 7.2). */
export function registerDevicehubRoutes(app: HttpApp, guards: Guards, service: DeviceHubService) {
  const onRequest = guards.role('resident', 'admin');

  app.get('/api/devicehub/devices', { onRequest, schema: { querystring: noQuery } }, async () =>
    service.list(),
  );

  app.patch(
    '/api/devicehub/devices/:id',
    {
      onRequest,
      config,
      bodyLimit: BODY_LIMIT,
      schema: { params: idParams, querystring: noQuery, body: deviceRenameBody },
    },
    async (request) => ok(await service.rename(request.params.id, request.body.name)),
  );

  app.post(
    '/api/devicehub/devices/:id/commands',
    {
      onRequest,
      config,
      bodyLimit: BODY_LIMIT,
      schema: { params: idParams, querystring: noQuery, body: deviceCommandBody },
    },
    async (request) => ok(await service.command(request.params.id, request.body)),
  );
}

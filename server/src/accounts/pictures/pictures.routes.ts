import multipart from '@fastify/multipart';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { HttpError } from '../../http/errors.js';
import type { HttpApp } from '../../http/http-app.js';
import { perUserLimit } from '../../http/rate-limit.js';
import { noBody, noQuery } from '../../http/validation.js';
import { callerOf, type Guards } from '../../users/index.js';
import type { IncomingPicture } from './picture-store.js';
import { PICTURE_ERRORS } from './pictures.errors.js';
import { pictureParams, uploadBody, uploadQuery } from './pictures.schemas.js';
import type { PicturesService } from './pictures.service.js';

export const MAX_UPLOAD_BYTES = 5 * 1024 * 1024;
const TEN_MINUTES = 10 * 60_000;
/** Uploads per user per 10 minutes (each may cost a 16-megapixel decode). */
export const UPLOADS_PER_USER = 10;
/** Generated avatars per user per 10 minutes (someone may click through a few to find one). */
export const AVATARS_PER_USER = 30;

/** Multipart's own limits, answered in the words of docs/strings.md#validation-rules. */
const MULTIPART_ERRORS: Record<string, [number, string]> = {
  FST_REQ_FILE_TOO_LARGE: [413, PICTURE_ERRORS.tooLarge],
  FST_FILES_LIMIT: [400, PICTURE_ERRORS.notMultipart],
  FST_PARTS_LIMIT: [400, PICTURE_ERRORS.notMultipart],
  FST_FIELDS_LIMIT: [400, PICTURE_ERRORS.notMultipart],
};

/** POST /profile/generate-avatar, POST /profile/upload and GET /profile/pictures/:file. */
export async function registerPicturesRoutes(app: HttpApp, guards: Guards, service: PicturesService) {
  app.post(
    '/api/auth/profile/generate-avatar',
    {
      onRequest: guards.user,
      config: perUserLimit(AVATARS_PER_USER, TEN_MINUTES, 'avatar'),
      schema: { querystring: noQuery, body: noBody },
    },
    (request) => service.generate(callerOf(request)),
  );

  app.get(
    '/api/auth/profile/pictures/:file',
    { schema: { params: pictureParams, querystring: noQuery } },
    async (request, reply) => {
      const picture = await service.read(request.params.file);
      return (
        reply
          .header('content-type', picture.contentType)
          .header('x-content-type-options', 'nosniff')
          // A picture's name is random and never reused, but it is a household member's face:
          // browsers may keep it, shared caches (proxies, CDNs) may not.
          .header('cache-control', 'private, max-age=86400')
          .send(picture.bytes)
      );
    },
  );

  // Multipart parsing exists only inside this scope: no other route accepts form uploads.
  await app.register(async (plugin) => {
    const scope = plugin.withTypeProvider<ZodTypeProvider>();
    await scope.register(multipart, {
      limits: { fileSize: MAX_UPLOAD_BYTES, files: 1, fields: 5, parts: 6, fieldSize: 1024, headerPairs: 20 },
    });
    scope.post(
      '/api/auth/profile/upload',
      {
        onRequest: guards.user,
        config: perUserLimit(UPLOADS_PER_USER, TEN_MINUTES, 'picture-upload'),
        schema: { querystring: uploadQuery, body: uploadBody },
      },
      async (request) => {
        const target = await service.uploadTarget(callerOf(request), request.query.user_id);
        if (!request.isMultipart()) throw new HttpError(400, PICTURE_ERRORS.notMultipart);
        let incoming: IncomingPicture;
        try {
          const part = await request.file();
          if (part?.fieldname !== 'file') throw new HttpError(400, PICTURE_ERRORS.noFile);
          // To a file as it arrives: uploads waiting for the image queue hold disk, not memory.
          incoming = await service.receive(part.file);
          if (part.file.truncated) {
            await incoming.discard();
            throw new HttpError(413, PICTURE_ERRORS.tooLarge);
          }
        } catch (error) {
          const known = MULTIPART_ERRORS[(error as { code?: string }).code ?? ''];
          throw known ? new HttpError(...known) : error;
        }
        try {
          return await service.upload(target, incoming);
        } finally {
          await incoming.discard();
        }
      },
    );
  });
}

import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../app.js';
import { toUserView } from '../../users/user.view.js';
import type { UserRecord } from '../../users/users.repository.js';
import { manageDenial } from '../../users/users.service.js';
import { generatePixelAvatar, reencodePicture, UnreadablePicture } from './picture-encoder.js';
import { sniffPictureFormat } from './picture-format.js';
import { PictureStore, type StoredExtension } from './picture-store.js';
import { PicturesRepository } from './pictures.repository.js';

export const MAX_UPLOAD_BYTES = 5 * 1024 * 1024;

export const PICTURE_ERRORS = {
  noFile: 'Please select a file first',
  tooLarge: 'File too large (max 5MB)',
  unsupported: 'Only PNG, JPEG, WebP and GIF images are accepted',
  unreadable: 'The image could not be read',
  notMultipart: 'Send the picture as multipart/form-data in the field "file"',
  forbidden: 'Forbidden',
  notFound: 'User not found',
  pictureNotFound: 'Picture not found',
} as const;

/** Profile pictures: generate-avatar, upload (sniffed, re-encoded) and serving them. */
export async function registerPictureRoutes(app: FastifyInstance, context: AppContext): Promise<void> {
  const store = new PictureStore(context.config.dataDir);
  const repository = new PicturesRepository(context.storage.db);

  /** Stores the bytes as the user's picture, removes the old file, answers the updated user. */
  async function setPicture(userId: string, bytes: Buffer, extension: StoredExtension) {
    const file = await store.save(bytes, extension);
    const replaced = await repository.replace(userId, file).catch(async (error) => {
      await store.remove(file);
      throw error;
    });
    if (!replaced) {
      await store.remove(file);
      return undefined;
    }
    await store
      .remove(replaced.previous)
      .catch((error) => context.log.warn({ err: error }, 'could not remove a replaced profile picture'));
    return context.users.findById(userId);
  }

  app.post(
    '/api/auth/profile/generate-avatar',
    { preHandler: context.auth.requireUser },
    async (request, reply) => {
      const caller = request.caller as UserRecord;
      const user = await setPicture(caller.id, await generatePixelAvatar(), 'png');
      if (!user) return reply.code(404).send({ error: PICTURE_ERRORS.notFound });
      return toUserView(user);
    },
  );

  app.get<{ Params: { file: string } }>('/api/auth/profile/pictures/:file', async (request, reply) => {
    const picture = await store.read(request.params.file);
    if (!picture) return reply.code(404).send({ error: PICTURE_ERRORS.pictureNotFound });
    return reply
      .header('content-type', picture.contentType)
      .header('x-content-type-options', 'nosniff')
      .header('cache-control', 'public, max-age=31536000, immutable')
      .send(picture.bytes);
  });

  // Multipart parsing exists only inside this scope: no other route accepts form uploads.
  await app.register(async (scope) => {
    await scope.register(multipart, {
      limits: { fileSize: MAX_UPLOAD_BYTES, files: 1, fields: 5, parts: 6, fieldSize: 1024, headerPairs: 20 },
    });
    scope.post<{ Querystring: { user_id?: string } }>(
      '/api/auth/profile/upload',
      { preHandler: context.auth.requireUser },
      async (request, reply) => {
        const target = await uploadTarget(request, reply, context);
        if (!target) return reply;
        if (!request.isMultipart()) return reply.code(400).send({ error: PICTURE_ERRORS.notMultipart });

        let bytes: Buffer;
        try {
          const part = await request.file();
          if (part?.fieldname !== 'file') return reply.code(400).send({ error: PICTURE_ERRORS.noFile });
          bytes = await part.toBuffer();
        } catch (error) {
          const code = (error as { code?: string }).code;
          if (code === 'FST_REQ_FILE_TOO_LARGE')
            return reply.code(413).send({ error: PICTURE_ERRORS.tooLarge });
          if (code === 'FST_FILES_LIMIT' || code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT') {
            return reply.code(400).send({ error: PICTURE_ERRORS.notMultipart });
          }
          throw error;
        }
        if (bytes.length === 0) return reply.code(400).send({ error: PICTURE_ERRORS.noFile });
        if (!sniffPictureFormat(bytes)) return reply.code(415).send({ error: PICTURE_ERRORS.unsupported });

        let encoded: Buffer;
        try {
          encoded = await reencodePicture(bytes);
        } catch (error) {
          if (error instanceof UnreadablePicture) {
            return reply.code(415).send({ error: PICTURE_ERRORS.unreadable });
          }
          throw error;
        }
        const user = await setPicture(target.id, encoded, 'webp');
        if (!user) return reply.code(404).send({ error: PICTURE_ERRORS.notFound });
        return toUserView(user);
      },
    );
  });
}

/** Whose picture an upload sets: the caller's, or `?user_id=` for a resident or admin allowed to. */
async function uploadTarget(
  request: FastifyRequest<{ Querystring: { user_id?: string } }>,
  reply: FastifyReply,
  context: AppContext,
): Promise<UserRecord | undefined> {
  const caller = request.caller as UserRecord;
  const userId = request.query.user_id;
  if (!userId || userId === caller.id) return caller;
  if (caller.role === 'user') {
    reply.code(403).send({ error: PICTURE_ERRORS.forbidden });
    return undefined;
  }
  const target = await context.users.findById(userId);
  if (!target) {
    reply.code(404).send({ error: PICTURE_ERRORS.notFound });
    return undefined;
  }
  const denial = manageDenial(caller, target);
  if (denial) {
    reply.code(403).send({ error: denial });
    return undefined;
  }
  return target;
}

import type { User } from '@hearth/contracts';
import type { Logger } from 'pino';
import { HttpError } from '../../http/errors.js';
import { manageDenial, toUserView, type UserRecord, type UsersRepository } from '../../users/index.js';
import { generatePixelAvatar, reencodePicture, UnreadablePicture } from './picture-encoder.js';
import { sniffPictureFormat } from './picture-format.js';
import type { PictureStore, StoredExtension } from './picture-store.js';
import { PICTURE_ERRORS } from './pictures.errors.js';
import type { PicturesRepository } from './pictures.repository.js';

export interface PicturesServiceDeps {
  users: Pick<UsersRepository, 'findById'>;
  repository: PicturesRepository;
  store: PictureStore;
  log: Logger;
}

const userNotFound = () => new HttpError(404, PICTURE_ERRORS.notFound);

/** Profile pictures: a generated avatar, or an upload sniffed and re-encoded before it is kept. */
export class PicturesService {
  constructor(private readonly deps: PicturesServiceDeps) {}

  async generate(caller: UserRecord): Promise<User> {
    return this.setPicture(caller.id, await generatePixelAvatar(), 'png');
  }

  /** Whose picture an upload sets: the caller's, or `userId`'s for a resident or admin allowed to. */
  async uploadTarget(caller: UserRecord, userId: string | undefined): Promise<UserRecord> {
    if (!userId || userId === caller.id) return caller;
    if (caller.role === 'user') throw new HttpError(403, PICTURE_ERRORS.forbidden);
    const target = await this.deps.users.findById(userId);
    if (!target) throw userNotFound();
    const denial = manageDenial(caller, target);
    if (denial) throw new HttpError(403, denial);
    return target;
  }

  async upload(target: UserRecord, bytes: Buffer): Promise<User> {
    if (bytes.length === 0) throw new HttpError(400, PICTURE_ERRORS.noFile);
    if (!sniffPictureFormat(bytes)) throw new HttpError(415, PICTURE_ERRORS.unsupported);
    let encoded: Buffer;
    try {
      encoded = await reencodePicture(bytes);
    } catch (error) {
      if (error instanceof UnreadablePicture) throw new HttpError(415, PICTURE_ERRORS.unreadable);
      throw error;
    }
    return this.setPicture(target.id, encoded, 'webp');
  }

  async read(file: string): Promise<{ bytes: Buffer; contentType: string }> {
    const picture = await this.deps.store.read(file);
    if (!picture) throw new HttpError(404, PICTURE_ERRORS.pictureNotFound);
    return picture;
  }

  /** Stores the bytes as the user's picture, removes the old file, answers the updated user. */
  private async setPicture(userId: string, bytes: Buffer, extension: StoredExtension): Promise<User> {
    const { store, repository, log } = this.deps;
    const file = await store.save(bytes, extension);
    const replaced = await repository.replace(userId, file).catch(async (error) => {
      await store.remove(file);
      throw error;
    });
    if (!replaced) {
      await store.remove(file);
      throw userNotFound();
    }
    await store
      .remove(replaced.previous)
      .catch((error) => log.warn({ err: error }, 'could not remove a replaced profile picture'));
    const user = await this.deps.users.findById(userId);
    if (!user) throw userNotFound();
    return toUserView(user);
  }
}

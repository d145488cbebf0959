import type { Readable } from 'node:stream';
import type { User } from '@hearth/contracts';
import type { Logger } from 'pino';
import { HttpError } from '../../http/errors.js';
import { manageDenial, toUserView, type UserRecord, type UsersRepository } from '../../users/index.js';
import type { ImageJobs } from './image-jobs.js';
import { generatePixelAvatar, reencodePicture, TooManyPixels, UnreadablePicture } from './picture-encoder.js';
import { sniffPictureFormat } from './picture-format.js';
import type { IncomingPicture, PictureStore, StoredExtension } from './picture-store.js';
import { PICTURE_ERRORS } from './pictures.errors.js';
import type { PicturesRepository } from './pictures.repository.js';

export interface PicturesServiceDeps {
  users: Pick<UsersRepository, 'findById'>;
  repository: PicturesRepository;
  store: PictureStore;
  /** The queue every image job waits in (two at once). */
  jobs: ImageJobs;
  log: Logger;
}

const userNotFound = () => new HttpError(404, PICTURE_ERRORS.notFound);

/** Profile pictures: a generated avatar, or an upload sniffed and re-encoded before it is kept. */
export class PicturesService {
  constructor(private readonly deps: PicturesServiceDeps) {}

  async generate(caller: UserRecord): Promise<User> {
    return this.setPicture(caller.id, await this.deps.jobs.run(generatePixelAvatar), 'png');
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

  /** Sets an upload received to a file (the caller discards the file afterwards). */
  async upload(target: UserRecord, incoming: Pick<IncomingPicture, 'file' | 'size' | 'head'>): Promise<User> {
    if (incoming.size === 0) throw new HttpError(400, PICTURE_ERRORS.noFile);
    if (!sniffPictureFormat(incoming.head)) throw new HttpError(415, PICTURE_ERRORS.unsupported);
    let encoded: Buffer;
    try {
      encoded = await this.deps.jobs.run(() => reencodePicture(incoming.file));
    } catch (error) {
      if (error instanceof TooManyPixels) throw new HttpError(413, PICTURE_ERRORS.tooManyPixels);
      if (error instanceof UnreadablePicture) throw new HttpError(415, PICTURE_ERRORS.unreadable);
      throw error;
    }
    return this.setPicture(target.id, encoded, 'webp');
  }

  /** Receives an upload's bytes to a temporary file (see PictureStore.receive). */
  receive(stream: Readable): Promise<IncomingPicture> {
    return this.deps.store.receive(stream);
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

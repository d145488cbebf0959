import type { Readable } from 'node:stream';
import type { User } from '@hearth/contracts';
import type { Logger } from 'pino';
import { HttpError } from '../../http/errors.js';
import { manageDenial, toUserView, type UserRecord, type UsersRepository } from '../../users/index.js';
import type { ImageJobs } from './image-jobs.js';
import { generatePixelAvatar, reencodePicture, TooManyPixels, UnreadablePicture } from './picture-encoder.js';
import { sniffPictureFormat } from './picture-format.js';
import {
  type IncomingPicture,
  isValidPictureName,
  newPicture,
  type PictureStore,
  type StoredExtension,
} from './picture-store.js';
import { PICTURE_ERRORS } from './pictures.errors.js';
import type { PicturesRepository } from './pictures.repository.js';

export interface PicturesServiceDeps {
  users: Pick<UsersRepository, 'findById'>;
  repository: PicturesRepository;
  store: PictureStore;
  /** The queue every image job waits in (two at once, one of them at most an upload). */
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
      encoded = await this.deps.jobs.runLarge(() => reencodePicture(incoming.file));
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
    const picture = isValidPictureName(file) ? await this.deps.repository.read(file) : undefined;
    if (!picture) throw new HttpError(404, PICTURE_ERRORS.pictureNotFound);
    return picture;
  }

  /**
   * Moves the picture files an earlier version kept in this instance's DATA_DIR into the
   * database (each for the user whose picture it still is; the others were replaced pictures
   * left behind) and deletes them. Idempotent; several instances each move their own.
   */
  async importLegacyFiles(): Promise<{ imported: number; removed: number }> {
    const { store, repository } = this.deps;
    let imported = 0;
    let removed = 0;
    for (const name of await store.legacyNames()) {
      if (await repository.importLegacy(await store.readLegacy(name))) imported++;
      await store.removeLegacy(name);
      removed++;
    }
    return { imported, removed };
  }

  /** Stores the bytes as the user's picture (the old one goes), answers the updated user. */
  private async setPicture(userId: string, bytes: Buffer, extension: StoredExtension): Promise<User> {
    if (!(await this.deps.repository.replace(userId, newPicture(bytes, extension)))) throw userNotFound();
    const user = await this.deps.users.findById(userId);
    if (!user) throw userNotFound();
    return toUserView(user);
  }
}

import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/** Stored names are random hex plus the extension we wrote; nothing else is ever served. */
const FILE_NAME = /^[0-9a-f]{32}\.(png|webp)$/;

export const CONTENT_TYPES = { png: 'image/png', webp: 'image/webp' } as const;
export type StoredExtension = keyof typeof CONTENT_TYPES;

/** A re-encoded picture as the database keeps it. */
export interface StoredPicture {
  name: string;
  contentType: string;
  bytes: Buffer;
}

/** An upload received to a temporary file: its path, size and first bytes (for sniffing). */
export interface IncomingPicture {
  file: string;
  size: number;
  head: Buffer;
  discard(): Promise<void>;
}

export const isValidPictureName = (name: string): boolean => FILE_NAME.test(name);

/** A fresh random name for re-encoded bytes. */
export function newPicture(bytes: Buffer, extension: StoredExtension): StoredPicture {
  return {
    name: `${randomBytes(16).toString('hex')}.${extension}`,
    contentType: CONTENT_TYPES[extension],
    bytes,
  };
}

/**
 * $DATA_DIR/pictures: where uploads wait on disk while they are checked (pictures themselves live
 * in the database), and where pictures were kept before migration 0009 (moved in at start).
 */
export class PictureStore {
  readonly directory: string;

  constructor(dataDir: string) {
    this.directory = path.join(dataDir, 'pictures');
  }

  /**
   * Writes an upload as it arrives to a file of its own (never served), so that a waiting upload
   * holds disk, not memory. The caller discards it.
   */
  async receive(stream: Readable): Promise<IncomingPicture> {
    await fs.mkdir(this.directory, { recursive: true, mode: 0o700 });
    const file = path.join(this.directory, `.incoming-${randomBytes(16).toString('hex')}.tmp`);
    const discard = () => fs.rm(file, { force: true });
    try {
      await pipeline(stream, createWriteStream(file, { flags: 'wx', mode: 0o600 }));
    } catch (error) {
      await discard();
      throw error;
    }
    const { size } = await fs.stat(file);
    const head = Buffer.alloc(16);
    const handle = await fs.open(file, 'r');
    try {
      await handle.read(head, 0, head.length, 0);
    } finally {
      await handle.close();
    }
    return { file, size, head, discard };
  }

  /** Pictures kept as files by an earlier version (valid names only). */
  async legacyNames(): Promise<string[]> {
    try {
      return (await fs.readdir(this.directory)).filter(isValidPictureName);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw error;
    }
  }

  async readLegacy(name: string): Promise<StoredPicture> {
    const bytes = await fs.readFile(path.join(this.directory, name));
    return { name, bytes, contentType: CONTENT_TYPES[path.extname(name).slice(1) as StoredExtension] };
  }

  async removeLegacy(name: string): Promise<void> {
    await fs.rm(path.join(this.directory, name), { force: true });
  }
}

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

/** An upload received to a temporary file: its path, size and first bytes (for sniffing). */
export interface IncomingPicture {
  file: string;
  size: number;
  head: Buffer;
  discard(): Promise<void>;
}

/** Profile pictures as files under $DATA_DIR/pictures/. */
export class PictureStore {
  readonly directory: string;

  constructor(dataDir: string) {
    this.directory = path.join(dataDir, 'pictures');
  }

  static isValidName(name: string): boolean {
    return FILE_NAME.test(name);
  }

  async save(bytes: Buffer, extension: StoredExtension): Promise<string> {
    await fs.mkdir(this.directory, { recursive: true, mode: 0o700 });
    const name = `${randomBytes(16).toString('hex')}.${extension}`;
    // Write under a temporary name first, so a reader never sees half a picture.
    const temporary = path.join(this.directory, `.${name}.tmp`);
    // Only Hearth's own user may read it (DATA_DIR's files are 0600).
    await fs.writeFile(temporary, bytes, { flag: 'wx', mode: 0o600 });
    await fs.rename(temporary, path.join(this.directory, name));
    return name;
  }

  /**
   * Writes an upload as it arrives to a file of its own beside the pictures (never served: not a
   * valid name), so that a waiting upload holds disk, not memory. The caller discards it.
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

  /** The picture's bytes and content type, or undefined for an invalid or missing name. */
  async read(name: string): Promise<{ bytes: Buffer; contentType: string } | undefined> {
    if (!PictureStore.isValidName(name)) return undefined;
    try {
      const bytes = await fs.readFile(path.join(this.directory, name));
      return { bytes, contentType: CONTENT_TYPES[path.extname(name).slice(1) as StoredExtension] };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
  }

  async remove(name: string | null): Promise<void> {
    if (!name || !PictureStore.isValidName(name)) return;
    await fs.rm(path.join(this.directory, name), { force: true });
  }
}

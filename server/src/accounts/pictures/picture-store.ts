import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';

/** Stored names are random hex plus the extension we wrote; nothing else is ever served. */
const FILE_NAME = /^[0-9a-f]{32}\.(png|webp)$/;

export const CONTENT_TYPES = { png: 'image/png', webp: 'image/webp' } as const;
export type StoredExtension = keyof typeof CONTENT_TYPES;

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

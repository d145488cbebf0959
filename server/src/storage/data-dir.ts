import fs from 'node:fs';
import type { Logger } from 'pino';

/** DATA_DIR and every folder Hearth makes in it: only Hearth's own user may enter. */
export const PRIVATE_DIR_MODE = 0o700;
/** Every file Hearth writes there (database, pictures, secrets, mail): only its user may read. */
export const PRIVATE_FILE_MODE = 0o600;

/**
 * Makes DATA_DIR (0700), or narrows an existing one that others could enter (an older Hearth
 * made it 0755): it holds the SQLite database, pictures, secrets and the mail outbox.
 */
export function preparePrivateDirectory(dir: string, log: Logger): void {
  fs.mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  const { mode, uid } = fs.statSync(dir);
  if ((mode & 0o077) === 0) return;
  if (typeof process.getuid === 'function' && uid !== process.getuid()) {
    log.warn({ dir, mode: (mode & 0o777).toString(8) }, 'DATA_DIR belongs to another user; left as it is');
    return;
  }
  fs.chmodSync(dir, PRIVATE_DIR_MODE);
  log.info({ dir, was: (mode & 0o777).toString(8) }, 'DATA_DIR narrowed to 0700');
}

/** Creates the file empty with mode 0600 if missing, and narrows it to 0600 if others could read it. */
export function ensurePrivateFile(file: string): void {
  fs.closeSync(fs.openSync(file, 'a', PRIVATE_FILE_MODE));
  if ((fs.statSync(file).mode & 0o077) !== 0) fs.chmodSync(file, PRIVATE_FILE_MODE);
}

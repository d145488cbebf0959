import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/**
 * Returns the secret stored in $DATA_DIR/secrets/<name>, creating it (256 random bits, file
 * mode 0600, in a 0700 folder) the first time, and then calling `onCreate` with it. Used for
 * AUTH_SECRET when it is not configured, and for the embedded broker's passwords.
 */
export function loadOrCreateSecret(
  dataDir: string,
  name: string,
  onCreate?: (secret: string) => void,
): string {
  const dir = path.join(dataDir, 'secrets');
  const file = path.join(dir, name);
  try {
    const existing = fs.readFileSync(file, 'utf8').trim();
    if (existing.length >= 32) return existing;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const secret = randomBytes(32).toString('base64url');
  // 'wx' fails if another instance wrote it meanwhile; then read theirs.
  try {
    fs.writeFileSync(file, `${secret}\n`, { mode: 0o600, flag: 'wx' });
    onCreate?.(secret);
    return secret;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return fs.readFileSync(file, 'utf8').trim();
    throw error;
  }
}

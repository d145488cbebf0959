import { createHash, randomBytes } from 'node:crypto';

/** docs/passes.md#tokens: 256 random bits, base64url (43 characters). */
export const newPassToken = (): string => randomBytes(32).toString('base64url');

/** What is stored and looked up: the token's SHA-256, hex. Any text hashes the same way. */
export const hashPassToken = (token: string): string =>
  createHash('sha256').update(token, 'utf8').digest('hex');

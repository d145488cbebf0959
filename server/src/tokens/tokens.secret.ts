import { createHash, randomInt } from 'node:crypto';
import { API_TOKEN_PATTERN, API_TOKEN_PREFIX, API_TOKEN_SECRET_LENGTH } from '@hearth/contracts';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const WHOLE = new RegExp(`^${API_TOKEN_PATTERN.source}$`);

/** `hearth_` and 40 characters of A–Z, a–z, 0–9 from the CSPRNG: about 238 random bits. */
export function newApiToken(): string {
  let secret = '';
  for (let i = 0; i < API_TOKEN_SECRET_LENGTH; i++) secret += ALPHABET[randomInt(ALPHABET.length)];
  return `${API_TOKEN_PREFIX}${secret}`;
}

/** Whether a text has the form of a token (anything else is refused without a look-up). */
export const isWellFormed = (token: string): boolean => WHOLE.test(token);

/**
 * What is stored and looked up: the token's SHA-256, hex. A fast hash is right for 238 random
 * bits (nobody can guess a preimage); argon2 is for passwords, which are guessable.
 */
export const hashApiToken = (token: string): string =>
  createHash('sha256').update(token, 'utf8').digest('hex');

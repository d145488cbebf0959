import { COMMON_PASSWORDS } from './common-passwords.js';

export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 128;

let common: Set<string> | undefined;
const commonPasswords = () => {
  common ??= new Set(COMMON_PASSWORDS.split('\n'));
  return common;
};

/** The reason a new password is refused (each mentions "password", SPEC 5), or undefined. */
export function passwordProblem(password: string): string | undefined {
  const length = [...password].length;
  if (length < PASSWORD_MIN_LENGTH) return `Password must be at least ${PASSWORD_MIN_LENGTH} characters`;
  if (length > PASSWORD_MAX_LENGTH) return `Password must be at most ${PASSWORD_MAX_LENGTH} characters`;
  if (commonPasswords().has(password.toLowerCase())) {
    return 'This password is too common: choose a less guessable password';
  }
  return undefined;
}

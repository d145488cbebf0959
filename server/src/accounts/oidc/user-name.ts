import { randomInt } from 'node:crypto';

/** Sign-up's rule for user names: 3–32 letters, digits, ".", "_" or "-". */
const MAX = 32;
const MIN = 3;

/** A user name to try for a person coming from an identity provider. */
export function baseUserName(preferred: string | undefined, email: string): string {
  for (const source of [preferred, email.split('@')[0]]) {
    const cleaned = (source ?? '')
      .normalize('NFKD')
      .replace(/[^A-Za-z0-9._-]/g, '')
      .replace(/^[._-]+/, '')
      .slice(0, MAX);
    if (cleaned.length >= MIN) return cleaned;
  }
  return 'user';
}

/** Another try when the base is taken: "ada" → "ada-4821". */
export function alternativeUserName(base: string): string {
  const suffix = `-${randomInt(1000, 10000)}`;
  return `${base.slice(0, MAX - suffix.length)}${suffix}`;
}

/** Reading untrusted JSON bodies: only the named string fields, nothing else (no mass assignment). */
export function field(body: unknown, name: string): string {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return '';
  const value = (body as Record<string, unknown>)[name];
  if (typeof value === 'string') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return '';
}

const EMAIL = /^[^\s@"<>()[\]\\,;:]+@[^\s@"<>()[\]\\,;:]+\.[^\s@"<>()[\]\\,;:]+$/;
export const isEmail = (value: string) => value.length <= 254 && EMAIL.test(value);

export const USER_NAME = /^[A-Za-z0-9._-]{3,32}$/;
export const NAME_MAX_LENGTH = 64;

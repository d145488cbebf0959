/**
 * A fixture's member, which exists from its beforeAll on: a test (or a hook registered before the
 * fixture) that reads it earlier gets an error naming it instead of `undefined`.
 */
export function started<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`${what} exists from beforeAll on`);
  return value;
}

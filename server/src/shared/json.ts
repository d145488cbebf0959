/** A JSON object as parsed from untrusted input: keys to anything. */
export type JsonObject = Record<string, unknown>;

/** A plain object (not null, not an array): the one check the server uses for parsed JSON. */
export const isObject = (value: unknown): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

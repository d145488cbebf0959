// How values are stored so that one schema and one set of queries serve SQLite and PostgreSQL.

/** Timestamps are ISO-8601 UTC text; this is the one place that makes them. */
export const nowIso = (now = Date.now()): string => new Date(now).toISOString();

/** Booleans are 0/1 integers: reading one. */
export const toBool = (value: number | boolean | null | undefined): boolean => Boolean(value);
/** …and writing one. */
export const fromBool = (value: boolean): number => (value ? 1 : 0);

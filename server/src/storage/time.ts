/** Timestamps are stored as ISO-8601 UTC text; this is the one place that makes them. */
export const nowIso = (now = Date.now()): string => new Date(now).toISOString();
export const toBool = (value: number | boolean | null | undefined): boolean => Boolean(value);
export const fromBool = (value: boolean): number => (value ? 1 : 0);

/** Tables of the request rate limit (migration 0006). */

/** A fixed counting window: `hits` requests with this key until `ends_at` (ISO-8601). */
export interface RateLimitWindowsTable {
  key: string;
  hits: number;
  ends_at: string;
}

export interface RateLimitTables {
  rate_limit_windows: RateLimitWindowsTable;
}

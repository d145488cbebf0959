/** The guest passes table, added by migration 0015 (docs/passes.md#storage). */
export interface PassesTable {
  id: string;
  /** SHA-256 of the token (hex): the token itself is never stored. Unique. */
  token_hash: string;
  label: string | null;
  /** `view` or `control`. */
  level: string;
  /** JSON array of room ids. */
  rooms: string;
  /** JSON array of device ids. */
  devices: string;
  /** ISO-8601 UTC, or null. */
  starts_at: string | null;
  ends_at: string | null;
  /** JSON array of windows (docs/passes.md#validity), or null. */
  schedule: string | null;
  /** 0/1 */
  paused: number;
  /** Set by DELETE /api/passes/{id}: the pass is gone from the list and its token finds nothing. */
  revoked_at: string | null;
  created_by: string;
  created_at: string;
  updated_at: string;
}

export interface PassesTables {
  passes: PassesTable;
}

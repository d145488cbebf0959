/** The API tokens table, added by migration 0026 (docs/api.md#api-tokens). */
export interface ApiTokensTable {
  id: string;
  /** SHA-256 of the whole token (hex): the token itself is never stored. Unique. */
  secret_hash: string;
  owner_id: string;
  name: string;
  /** `read` or `control`. */
  scope: string;
  /** JSON arrays of ids; both empty: not narrowed. */
  rooms: string;
  devices: string;
  /** ISO-8601 UTC. */
  created_at: string;
  /** Null: never expires. */
  expires_at: string | null;
  last_used_at: string | null;
  last_used_ip: string | null;
  /** Set when revoked (by its owner, an admin, or the owner's lock, reset or sign-out everywhere). */
  revoked_at: string | null;
}

export interface ApiTokensTables {
  api_tokens: ApiTokensTable;
}

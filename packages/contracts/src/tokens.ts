/** Shapes of API tokens (docs/api.md#api-tokens), shared by server and web app. */

/** Every API token starts with this; 40 characters of A–Z, a–z and 0–9 follow. */
export const API_TOKEN_PREFIX = 'hearth_';
export const API_TOKEN_SECRET_LENGTH = 40;
/** A whole token as a pattern (also what a log line or an address must never carry). */
export const API_TOKEN_PATTERN = /hearth_[A-Za-z0-9]{40}/;

/** `read`: devices, state, history and activity; `control`: also commands. */
export const API_TOKEN_SCOPES = ['read', 'control'] as const;
export type ApiTokenScope = (typeof API_TOKEN_SCOPES)[number];

/** How long a new token lives, in days (`never`: until revoked). */
export const API_TOKEN_EXPIRIES = { '30d': 30, '90d': 90, '1y': 365, never: null } as const;
export type ApiTokenExpiry = keyof typeof API_TOKEN_EXPIRIES;

export const API_TOKEN_NAME_MAX_LENGTH = 64;
/** Most rooms, and most devices, one token may be narrowed to. */
export const API_TOKEN_MAX_ITEMS = 500;

/** A token as its owner (and admins) see it: never the token itself. */
export interface ApiToken {
  id: string;
  name: string;
  scope: ApiTokenScope;
  /** The rooms and devices it is narrowed to; both empty: everything its owner reaches. */
  rooms: string[];
  devices: string[];
  /** ISO-8601 UTC. */
  created_at: string;
  /** ISO-8601 UTC, or null (never expires). */
  expires_at: string | null;
  /** When and from where it was last used (within a minute), or null. */
  last_used_at: string | null;
  last_used_ip: string | null;
  owner: { id: string; label: string };
}

/** POST /api/auth/tokens answers this once: `token` is never shown again. */
export interface CreatedApiToken extends ApiToken {
  token: string;
}

/** GET /api/auth/tokens: the caller's own tokens (an admin's: everyone's), newest first. */
export interface ApiTokenList {
  tokens: ApiToken[];
}

/** POST /api/auth/tokens */
export interface NewApiToken {
  name: string;
  expires_in: ApiTokenExpiry;
  scope: ApiTokenScope;
  rooms?: string[];
  devices?: string[];
}

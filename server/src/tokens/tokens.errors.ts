import { API_TOKEN_MAX_ITEMS, API_TOKEN_NAME_MAX_LENGTH } from '@hearth/contracts';

/** Every message API tokens answer with (docs/api.md#api-tokens); asserted in tests. */
export const TOKENS_ERRORS = {
  /** A malformed, unknown, revoked or expired token, or one whose owner is gone or locked: one answer. */
  invalid: 'Invalid API token',
  accountsApi: 'API tokens cannot be used on the accounts API',
  notOpen: 'API tokens cannot make this call',
  readOnly: 'This API token may only read',
  inAddress: 'Send API tokens in the Authorization header, never in the address',
  notFound: 'Token not found',
  name: 'Name is required',
  nameTooLong: `Name must be at most ${API_TOKEN_NAME_MAX_LENGTH} characters`,
  scope: 'scope must be read or control',
  expiry: 'expires_in must be 30d, 90d, 1y or never',
  ids: (field: string) => `${field} must be a list of ids`,
  tooMany: (field: string) => `${field} lists more than ${API_TOKEN_MAX_ITEMS} ids`,
  unknownRoom: (id: string) => `Unknown room: ${id}`,
  unknownDevice: (id: string) => `Unknown device: ${id}`,
  beyondOwner: (id: string) => `You may not give control of what you cannot control yourself: ${id}`,
} as const;

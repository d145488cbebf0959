import type { ApiTokenExpiry, ApiTokenScope } from '@hearth/contracts';

/** docs/strings.md#api-tokens-account-settings: every text of Settings → API tokens. */
export const API_TOKEN_TEXTS = {
  title: 'API tokens',
  intro:
    'Tokens let scripts and integrations use Hearth as you, within what you choose. Signing out of all other sessions or resetting your password revokes them.',
  newToken: 'New token',
  empty: 'No API tokens yet',
  loading: 'Loading tokens…',
  allDevices: 'Everything you may see',
  created: (date: string) => `Created ${date}`,
  lastUsed: (time: string, ip: string | null) => (ip ? `Last used ${time} from ${ip}` : `Last used ${time}`),
  neverUsed: 'Never used',
  expires: (date: string) => `Expires ${date}`,
  neverExpires: 'Never expires',
  owner: (name: string) => `Owner: ${name}`,
  revoke: 'Revoke',
  revoked: 'Token revoked',
  revokeFailed: 'Failed to revoke the token',
  dialogTitle: 'New API token',
  name: 'Name',
  expiry: 'Expires',
  scope: 'Access',
  rooms: 'Rooms',
  roomsHint: 'None ticked: every device you may see.',
  cancel: 'Cancel',
  create: 'Create token',
  creating: 'Creating…',
  createFailed: 'Failed to create the token',
  createdTitle: 'Token created',
  createdText: 'Copy this token now: it is shown only this once.',
  token: 'Token',
  copy: 'Copy token',
  copied: 'Token copied',
  copyFailed: 'Copy failed: select the token and copy it',
  done: 'Done',
} as const;

export const EXPIRY_LABELS: Record<ApiTokenExpiry, string> = {
  '30d': 'In 30 days',
  '90d': 'In 90 days',
  '1y': 'In a year',
  never: 'Never',
};

export const SCOPE_LABELS: Record<ApiTokenScope, string> = {
  read: 'Read: devices, their state, history and activity',
  control: 'Control: also commands',
};

/** The scope as the list's pill says it. */
export const SCOPE_PILLS: Record<ApiTokenScope, string> = { read: 'Read', control: 'Control' };

/** docs/screens.md#routes / docs/strings.md#identity-provider-errors: what an identity-provider sign-in brings back in the address. */
export interface OAuthReturn {
  accessToken: string | null;
  refreshToken: string | null;
  error: string | null;
  /** The address without those three parameters, or null when there were none. */
  cleanUrl: string | null;
}

const KEYS = ['access_token', 'refresh_token', 'error'] as const;

export function readOAuthReturn(href: string): OAuthReturn {
  const url = new URL(href);
  const get = (key: string) => url.searchParams.get(key) || null;
  const found = KEYS.some((key) => url.searchParams.has(key));
  const result = {
    accessToken: get('access_token'),
    refreshToken: get('refresh_token'),
    error: get('error'),
  };
  if (!found) return { ...result, cleanUrl: null };
  for (const key of KEYS) url.searchParams.delete(key);
  return { ...result, cleanUrl: `${url.pathname}${url.search}${url.hash}` };
}

const MESSAGES: Record<string, (provider: string) => string> = {
  oauth_cancelled: (p) => `${p} login was cancelled`,
  oauth_failed: (p) => `${p} login failed`,
  oauth_exchange_failed: () => 'Failed to exchange OAuth code',
  email_conflict: (p) => `Email already registered with different ${p} account`,
  token_failed: () => 'Failed to generate authentication tokens',
  user_creation_failed: () => 'Failed to create user account',
  link_failed: (p) => `Failed to link ${p} account`,
};

/** docs/strings.md#identity-provider-errors; anything unknown is "Authentication failed". */
export function oauthErrorMessage(code: string, provider: string): string {
  return Object.hasOwn(MESSAGES, code) ? MESSAGES[code]!(provider) : 'Authentication failed';
}

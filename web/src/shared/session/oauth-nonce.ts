/**
 * Login CSRF defence for the identity-provider return (issue 11 item 8): the "Continue with"
 * button keeps a one-time nonce in sessionStorage and sends it with the sign-in; the server echoes
 * it beside the tokens. Tokens in an address are taken only when it is this tab's nonce, so a link
 * carrying someone else's tokens can't sign this browser into their account.
 */
export const OAUTH_NONCE_KEY = 'hearth.oauthNonce';

/** A fresh nonce, kept for this tab (base64url of 24 random bytes). */
export function startOAuthNonce(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(24));
  const nonce = btoa(String.fromCharCode(...bytes))
    .replaceAll('+', '-')
    .replaceAll('/', '_')
    .replace(/=+$/, '');
  try {
    window.sessionStorage.setItem(OAUTH_NONCE_KEY, nonce);
  } catch {
    // no storage: the return will be refused, as it can't be told from a forged one
  }
  return nonce;
}

/** Whether `echoed` is the nonce this tab started with; the nonce is spent either way. */
export function takeOAuthNonce(echoed: string | null): boolean {
  let expected: string | null = null;
  try {
    expected = window.sessionStorage.getItem(OAUTH_NONCE_KEY);
    window.sessionStorage.removeItem(OAUTH_NONCE_KEY);
  } catch {
    return false;
  }
  return expected !== null && echoed !== null && expected === echoed;
}

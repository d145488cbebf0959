import { canUseSession } from '../authenticate.js';
import type { SessionTokens, TokenPair } from '../session-tokens.js';
import type { IdentitiesRepository } from './identities.repository.js';
import type { OidcClient } from './oidc-client.js';
import { type OidcErrorCode, type OidcSignIn, OidcSignInError } from './oidc-sign-in.service.js';

/** Short-lived tokens for the redirect query (DESIGN.md): they may leak through history. */
export const REDIRECT_ACCESS_TTL_SECONDS = 60;
export const LOGIN_TTL_SECONDS = 10 * 60;

/** How a step of the sign-in ended: what the route redirects with. */
export type FlowResult<T> = { ok: true; value: T } | { ok: false; code: OidcErrorCode; reason: string };

const failed = (code: OidcErrorCode, reason: string): FlowResult<never> => ({ ok: false, code, reason });
const reasonOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

export interface OidcFlowDeps {
  provider: string;
  client: OidcClient;
  identities: IdentitiesRepository;
  signIn: OidcSignIn;
  sessions: SessionTokens;
}

/**
 * The two halves of a sign-in at the provider: starting it (where to send the browser, and the
 * state that binds it to this browser) and finishing it (checks, code exchange, the account,
 * tokens). Failures come back as the codes of docs/strings.md#identity-provider-errors, never as exceptions.
 */
export class OidcFlow {
  constructor(private readonly deps: OidcFlowDeps) {}

  async start(): Promise<FlowResult<{ url: string; state: string }>> {
    let authorization: Awaited<ReturnType<OidcClient['authorizationUrl']>>;
    try {
      authorization = await this.deps.client.authorizationUrl();
    } catch (error) {
      return failed('oauth_failed', `provider discovery failed: ${reasonOf(error)}`);
    }
    await this.deps.identities.savePending(
      { provider: this.deps.provider, ...authorization.request },
      LOGIN_TTL_SECONDS,
    );
    return { ok: true, value: { url: authorization.url.href, state: authorization.request.state } };
  }

  /** `query` is what the provider sent back; `cookieState` the state this browser started with. */
  async finish(query: URLSearchParams, cookieState: string | undefined): Promise<FlowResult<TokenPair>> {
    const { provider, identities } = this.deps;
    const state = query.get('state') ?? '';
    const pending = state ? await identities.takePending(state) : undefined;
    const providerError = query.get('error');
    if (providerError) {
      const code = providerError === 'access_denied' ? 'oauth_cancelled' : 'oauth_failed';
      return failed(code, `provider answered ${providerError.slice(0, 64)}`);
    }
    if (!pending || pending.provider !== provider) return failed('oauth_failed', 'unknown or expired state');
    if (cookieState !== state) return failed('oauth_failed', 'state does not belong to this browser');

    let profile: Awaited<ReturnType<OidcClient['exchange']>>;
    try {
      profile = await this.deps.client.exchange(query, pending);
    } catch (error) {
      return failed('oauth_exchange_failed', reasonOf(error));
    }
    let user: Awaited<ReturnType<OidcSignIn['resolveUser']>>;
    try {
      user = await this.deps.signIn.resolveUser(profile);
    } catch (error) {
      return error instanceof OidcSignInError
        ? failed(error.code, error.message)
        : failed('oauth_failed', reasonOf(error));
    }
    if (!canUseSession(user)) return failed('oauth_failed', 'the account is locked by an administrator');
    try {
      const tokens = await this.deps.sessions.issue(user, {
        accessTtlSeconds: REDIRECT_ACCESS_TTL_SECONDS,
        singleUse: true,
      });
      return { ok: true, value: tokens };
    } catch (error) {
      return failed('token_failed', reasonOf(error));
    }
  }
}

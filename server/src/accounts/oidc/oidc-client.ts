import * as client from 'openid-client';
import type { Config } from '../../config/config.js';

export type OidcSettings = NonNullable<Config['oidc']>;

/** What Hearth needs to know about the person the provider signed in. */
export interface OidcProfile {
  subject: string;
  email: string | undefined;
  emailVerified: boolean;
  givenName: string | undefined;
  familyName: string | undefined;
  name: string | undefined;
  preferredUsername: string | undefined;
}

export interface AuthorizationRequest {
  state: string;
  nonce: string;
  codeVerifier: string;
}

const LOOPBACK = new Set(['127.0.0.1', '::1', '[::1]', 'localhost']);

/** Plain http is allowed only to a provider on this machine (tests, a local dev provider). */
export function insecureAllowed(issuer: string): boolean {
  const url = new URL(issuer);
  return url.protocol === 'http:' && LOOPBACK.has(url.hostname);
}

const text = (value: unknown): string | undefined =>
  typeof value === 'string' && value.trim() ? value.trim() : undefined;

/** The OpenID provider as openid-client sees it; its discovery document is fetched once and kept. */
export class OidcClient {
  private configuration: Promise<client.Configuration> | undefined;

  constructor(
    readonly settings: OidcSettings,
    readonly redirectUri: string,
  ) {}

  private discover(): Promise<client.Configuration> {
    if (!this.configuration) {
      const { issuer, clientId, clientSecret } = this.settings;
      const url = new URL(issuer);
      if (url.protocol === 'http:' && !insecureAllowed(issuer)) {
        return Promise.reject(
          new Error('OIDC_ISSUER must use https unless the provider runs on this machine'),
        );
      }
      this.configuration = client
        .discovery(
          url,
          clientId,
          undefined,
          clientSecret ? client.ClientSecretBasic(clientSecret) : client.None(),
          { ...(insecureAllowed(issuer) ? { execute: [client.allowInsecureRequests] } : {}), timeout: 10 },
        )
        .catch((error) => {
          // Try again on the next sign-in instead of remembering a provider that was down.
          this.configuration = undefined;
          throw error;
        });
    }
    return this.configuration;
  }

  /** Fresh state, nonce and PKCE verifier, and the provider URL to send the browser to. */
  async authorizationUrl(): Promise<{ url: URL; request: AuthorizationRequest }> {
    const configuration = await this.discover();
    const request = {
      state: client.randomState(),
      nonce: client.randomNonce(),
      codeVerifier: client.randomPKCECodeVerifier(),
    };
    const url = client.buildAuthorizationUrl(configuration, {
      redirect_uri: this.redirectUri,
      scope: 'openid email profile',
      response_type: 'code',
      state: request.state,
      nonce: request.nonce,
      code_challenge: await client.calculatePKCECodeChallenge(request.codeVerifier),
      code_challenge_method: 'S256',
    });
    return { url, request };
  }

  /**
   * Exchanges the code (checking state, nonce, PKCE and the ID token) and reads the profile: from
   * the ID token, completed by the UserInfo endpoint when the token leaves the e-mail out.
   */
  async exchange(query: URLSearchParams, request: AuthorizationRequest): Promise<OidcProfile> {
    const configuration = await this.discover();
    const callbackUrl = new URL(this.redirectUri);
    callbackUrl.search = query.toString();
    const tokens = await client.authorizationCodeGrant(configuration, callbackUrl, {
      pkceCodeVerifier: request.codeVerifier,
      expectedState: request.state,
      expectedNonce: request.nonce,
      idTokenExpected: true,
    });
    const idClaims = tokens.claims();
    if (!idClaims) throw new Error('no ID token');
    let claims: Record<string, unknown> = { ...idClaims };
    if (claims.email === undefined && configuration.serverMetadata().userinfo_endpoint) {
      const info = await client.fetchUserInfo(configuration, tokens.access_token, idClaims.sub);
      claims = { ...info, ...claims, email: info.email, email_verified: info.email_verified };
    }
    return {
      subject: idClaims.sub,
      email: text(claims.email)?.toLowerCase(),
      emailVerified: claims.email_verified === true || claims.email_verified === 'true',
      givenName: text(claims.given_name),
      familyName: text(claims.family_name),
      name: text(claims.name),
      preferredUsername: text(claims.preferred_username),
    };
  }
}

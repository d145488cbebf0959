import type { FastifyContextConfig, FastifyReply } from 'fastify';
import type { Logger } from 'pino';
import { HttpError } from '../../http/errors.js';
import type { HttpApp } from '../../http/http-app.js';
import { noQuery } from '../../http/validation.js';
import { canUseSession } from '../authenticate.js';
import type { SessionTokens, TokenPair } from '../session-tokens.js';
import type { IdentitiesRepository } from './identities.repository.js';
import { callbackQuery, loginQuery, providerParams } from './oidc.schemas.js';
import { OidcClient, type OidcSettings } from './oidc-client.js';
import { type OidcErrorCode, type OidcSignIn, OidcSignInError } from './oidc-sign-in.service.js';

/** Short-lived tokens for the redirect query (DESIGN.md): they may leak through history. */
export const REDIRECT_ACCESS_TTL_SECONDS = 60;
const LOGIN_TTL_SECONDS = 10 * 60;
/** Binds a sign-in to the browser that started it (no logging a victim into an attacker's account). */
export const STATE_COOKIE = 'hearth_oidc_state';
const COOKIE_PATH = '/api/auth/oauth';

const KNOWN_NAMES: Record<string, string> = {
  google: 'Google',
  github: 'GitHub',
  gitlab: 'GitLab',
  microsoft: 'Microsoft',
  authentik: 'Authentik',
  keycloak: 'Keycloak',
  authelia: 'Authelia',
};
export const providerName = (id: string): string =>
  KNOWN_NAMES[id] ?? id.charAt(0).toUpperCase() + id.slice(1);

export interface OidcRoutesDeps {
  settings: OidcSettings | undefined;
  publicUrl: string;
  log: Logger;
  identities: IdentitiesRepository;
  signIn: OidcSignIn | undefined;
  sessions: SessionTokens;
  limit: FastifyContextConfig;
}

const unknownProvider = () => new HttpError(404, 'Unknown identity provider');

/** GET /api/auth/oauth/providers, …/:provider/login and its callback (openid-client). */
export function registerOidcRoutes(app: HttpApp, deps: OidcRoutesDeps): void {
  const { settings, identities, signIn, log } = deps;

  app.get('/api/auth/oauth/providers', { schema: { querystring: noQuery } }, async () => ({
    providers: settings ? [{ id: settings.provider, name: providerName(settings.provider) }] : [],
  }));

  const { provider } = settings ?? { provider: undefined };
  const oidc =
    settings && new OidcClient(settings, `${deps.publicUrl}${COOKIE_PATH}/${settings.provider}/callback`);
  const secureCookie = deps.publicUrl.startsWith('https:');
  // Unauthenticated, and each login start writes a row: the same per-IP limit as the other auth calls.
  const limited = { config: deps.limit };

  const fail = (reply: FastifyReply, code: OidcErrorCode, reason: string) => {
    log.warn({ provider, code, reason }, 'identity provider sign-in failed');
    return reply.header('cache-control', 'no-store').redirect(`/?error=${code}`, 302);
  };

  app.get(
    '/api/auth/oauth/:provider/login',
    { ...limited, schema: { params: providerParams, querystring: loginQuery } },
    async (request, reply) => {
      if (!oidc || request.params.provider !== provider) throw unknownProvider();
      let authorization: Awaited<ReturnType<OidcClient['authorizationUrl']>>;
      try {
        authorization = await oidc.authorizationUrl();
      } catch (error) {
        return fail(reply, 'oauth_failed', `provider discovery failed: ${(error as Error).message}`);
      }
      await identities.savePending({ provider, ...authorization.request }, LOGIN_TTL_SECONDS);
      reply.setCookie(STATE_COOKIE, authorization.request.state, {
        path: COOKIE_PATH,
        httpOnly: true,
        // Lax: the provider sends the browser back with a top-level GET from its own site.
        sameSite: 'lax',
        secure: secureCookie,
        maxAge: LOGIN_TTL_SECONDS,
      });
      return reply.header('cache-control', 'no-store').redirect(authorization.url.href, 302);
    },
  );

  app.get(
    '/api/auth/oauth/:provider/callback',
    { ...limited, schema: { params: providerParams, querystring: callbackQuery } },
    async (request, reply) => {
      if (!oidc || !signIn || request.params.provider !== provider) throw unknownProvider();
      const query = new URLSearchParams(
        Object.entries(request.query).filter(
          (entry): entry is [string, string] => typeof entry[1] === 'string',
        ),
      );
      const state = request.query.state ?? '';
      const cookieState = request.cookies[STATE_COOKIE];
      reply.clearCookie(STATE_COOKIE, { path: COOKIE_PATH });

      const pending = state ? await identities.takePending(state) : undefined;
      const providerError = request.query.error;
      if (providerError) {
        const code = providerError === 'access_denied' ? 'oauth_cancelled' : 'oauth_failed';
        return fail(reply, code, `provider answered ${providerError.slice(0, 64)}`);
      }
      if (!pending || pending.provider !== provider)
        return fail(reply, 'oauth_failed', 'unknown or expired state');
      if (cookieState !== state) return fail(reply, 'oauth_failed', 'state does not belong to this browser');

      let profile: Awaited<ReturnType<OidcClient['exchange']>>;
      try {
        profile = await oidc.exchange(query, pending);
      } catch (error) {
        return fail(reply, 'oauth_exchange_failed', (error as Error).message);
      }

      let user: Awaited<ReturnType<OidcSignIn['resolveUser']>>;
      try {
        user = await signIn.resolveUser(profile);
      } catch (error) {
        if (error instanceof OidcSignInError) return fail(reply, error.code, error.message);
        return fail(reply, 'oauth_failed', (error as Error).message);
      }
      if (!canUseSession(user))
        return fail(reply, 'oauth_failed', 'the account is locked by an administrator');

      let tokens: TokenPair;
      try {
        tokens = await deps.sessions.issue(user, {
          accessTtlSeconds: REDIRECT_ACCESS_TTL_SECONDS,
          singleUse: true,
        });
      } catch (error) {
        return fail(reply, 'token_failed', (error as Error).message);
      }
      const target = new URLSearchParams({
        access_token: tokens.access_token,
        refresh_token: tokens.refresh_token,
      });
      return reply.header('cache-control', 'no-store').redirect(`/?${target}`, 302);
    },
  );
}

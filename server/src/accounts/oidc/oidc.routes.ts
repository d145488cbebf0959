import type { FastifyContextConfig, FastifyReply } from 'fastify';
import type { Logger } from 'pino';
import { HttpError } from '../../http/errors.js';
import type { HttpApp } from '../../http/http-app.js';
import { noQuery } from '../../http/validation.js';
import { callbackQuery, loginQuery, providerParams } from './oidc.schemas.js';
import type { OidcSettings } from './oidc-client.js';
import { LOGIN_TTL_SECONDS, type OidcFlow } from './oidc-flow.service.js';
import type { OidcErrorCode } from './oidc-sign-in.service.js';

/** Binds a sign-in to the browser that started it (no logging a victim into an attacker's account). */
export const STATE_COOKIE = 'hearth_oidc_state';
export const COOKIE_PATH = '/api/auth/oauth';

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
  /** Unset when no provider is configured. */
  flow: OidcFlow | undefined;
  secureCookie: boolean;
  log: Logger;
  limit: FastifyContextConfig;
}

const unknownProvider = () => new HttpError(404, 'Unknown identity provider');

/** GET /api/auth/oauth/providers, …/:provider/login and its callback. */
export function registerOidcRoutes(
  app: HttpApp,
  { settings, flow, secureCookie, log, limit }: OidcRoutesDeps,
) {
  const provider = settings?.provider;
  // Unauthenticated, and each login start writes a row: the same per-IP limit as the other auth calls.
  const limited = { config: limit };
  const redirect = (reply: FastifyReply, url: string) =>
    reply.header('cache-control', 'no-store').redirect(url, 302);
  const fail = (reply: FastifyReply, code: OidcErrorCode, reason: string) => {
    log.warn({ provider, code, reason }, 'identity provider sign-in failed');
    return redirect(reply, `/?error=${code}`);
  };
  const flowFor = (requested: string) => {
    if (!flow || requested !== provider) throw unknownProvider();
    return flow;
  };

  app.get('/api/auth/oauth/providers', { schema: { querystring: noQuery } }, async () => ({
    providers: provider ? [{ id: provider, name: providerName(provider) }] : [],
  }));

  app.get(
    '/api/auth/oauth/:provider/login',
    { ...limited, schema: { params: providerParams, querystring: loginQuery } },
    async (request, reply) => {
      const started = await flowFor(request.params.provider).start();
      if (!started.ok) return fail(reply, started.code, started.reason);
      reply.setCookie(STATE_COOKIE, started.value.state, {
        path: COOKIE_PATH,
        httpOnly: true,
        // Lax: the provider sends the browser back with a top-level GET from its own site.
        sameSite: 'lax',
        secure: secureCookie,
        maxAge: LOGIN_TTL_SECONDS,
      });
      return redirect(reply, started.value.url);
    },
  );

  app.get(
    '/api/auth/oauth/:provider/callback',
    { ...limited, schema: { params: providerParams, querystring: callbackQuery } },
    async (request, reply) => {
      const signIn = flowFor(request.params.provider);
      const query = new URLSearchParams(
        Object.entries(request.query).filter(
          (entry): entry is [string, string] => typeof entry[1] === 'string',
        ),
      );
      const cookieState = request.cookies[STATE_COOKIE];
      reply.clearCookie(STATE_COOKIE, { path: COOKIE_PATH });
      const finished = await signIn.finish(query, cookieState);
      if (!finished.ok) return fail(reply, finished.code, finished.reason);
      const { access_token, refresh_token } = finished.value;
      return redirect(reply, `/?${new URLSearchParams({ access_token, refresh_token })}`);
    },
  );
}

import type { FastifyContextConfig, FastifyReply } from 'fastify';
import type { Logger } from 'pino';
import { HttpError } from '../../http/errors.js';
import type { HttpApp } from '../../http/http-app.js';
import { noBody, noQuery } from '../../http/validation.js';
import type { Guards } from '../../users/index.js';
import { callerOf } from '../../users/index.js';
import type { SessionTokens } from '../session-tokens.js';
import type { IdentitiesRepository } from './identities.repository.js';
import { callbackQuery, loginQuery, providerParams } from './oidc.schemas.js';
import type { OidcSettings } from './oidc-client.js';
import { LOGIN_TTL_SECONDS, type OidcFlow } from './oidc-flow.service.js';
import type { OidcErrorCode } from './oidc-sign-in.service.js';
import { providerName } from './provider-name.js';

/** Binds a sign-in to the browser that started it (no logging a victim into an attacker's account). */
export const STATE_COOKIE = 'hearth_oidc_state';
export const COOKIE_PATH = '/api/auth/oauth';

export interface OidcRoutesDeps {
  settings: OidcSettings | undefined;
  /** Unset when no provider is configured. */
  flow: OidcFlow | undefined;
  secureCookie: boolean;
  log: Logger;
  limit: FastifyContextConfig;
  guards: Guards;
  identities: IdentitiesRepository;
  sessions: Pick<SessionTokens, 'recentlyAuthenticated'>;
}

/** Settings → Sign-in methods: refusing to remove the last way in. */
export const NEEDS_PASSWORD = (provider: string) =>
  `Set a password before disconnecting ${provider}: use “Forgot password?” on the sign-in page`;

/**
 * Settings → "Connect {provider}" from a session that has not proved who is behind it within the
 * last 5 minutes (issue 32 item 12): `reauth` tells the web app what to ask for.
 */
export const CONFIRM_PASSWORD_TO_CONNECT = (provider: string) => `Enter your password to connect ${provider}`;
export const SIGN_IN_AGAIN_TO_CONNECT = (provider: string) => `Sign in again to connect ${provider}`;

const unknownProvider = () => new HttpError(404, 'Unknown identity provider');

/** GET /api/auth/oauth/providers, …/:provider/login and its callback. */
export function registerOidcRoutes(
  app: HttpApp,
  { settings, flow, secureCookie, log, limit, guards, identities, sessions }: OidcRoutesDeps,
) {
  const provider = settings?.provider;
  // Unauthenticated, and each login start writes a row: the same per-IP limit as the other auth calls.
  const limited = { config: limit };
  const redirect = (reply: FastifyReply, url: string) =>
    reply.header('cache-control', 'no-store').redirect(url, 302);
  const fail = (reply: FastifyReply, code: OidcErrorCode, reason: string, linking = false) => {
    log.warn({ provider, code, reason, linking }, 'identity provider sign-in failed');
    return redirect(reply, `/?error=${code}`);
  };
  const setStateCookie = (reply: FastifyReply, state: string) =>
    reply.setCookie(STATE_COOKIE, state, {
      path: COOKIE_PATH,
      httpOnly: true,
      // Lax: the provider sends the browser back with a top-level GET from its own site.
      sameSite: 'lax',
      secure: secureCookie,
      maxAge: LOGIN_TTL_SECONDS,
    });
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
      const { nonce } = request.query;
      const started = await flowFor(request.params.provider).start(nonce ? { browserNonce: nonce } : {});
      if (!started.ok) return fail(reply, started.code, started.reason);
      setStateCookie(reply, started.value.state);
      return redirect(reply, started.value.url);
    },
  );

  // Settings → "Connect {provider}": a signed-in user who signed in, or confirmed the password,
  // within the last 5 minutes gets the provider's address; the callback links the identity to them.
  app.post(
    '/api/auth/oauth/:provider/connect',
    {
      onRequest: guards.user,
      config: limit,
      schema: { params: providerParams, querystring: noQuery, body: noBody },
    },
    async (request, reply) => {
      const caller = callerOf(request);
      const linking = flowFor(request.params.provider);
      const fresh = request.sessionId && (await sessions.recentlyAuthenticated(request.sessionId, caller.id));
      if (!fresh) {
        const name = providerName(request.params.provider);
        throw caller.passwordHash
          ? new HttpError(403, CONFIRM_PASSWORD_TO_CONNECT(name), { reauth: 'password' })
          : new HttpError(403, SIGN_IN_AGAIN_TO_CONNECT(name), { reauth: 'sign_in' });
      }
      const started = await linking.start({ linkUserId: caller.id });
      if (!started.ok) throw new HttpError(502, `${providerName(request.params.provider)} is not reachable`);
      setStateCookie(reply, started.value.state);
      reply.header('cache-control', 'no-store');
      return { url: started.value.url };
    },
  );

  app.get(
    '/api/auth/identities',
    { onRequest: guards.user, schema: { querystring: noQuery } },
    async (request) => ({
      identities: (await identities.listForUser(callerOf(request).id)).map((identity) => ({
        ...identity,
        name: providerName(identity.provider),
      })),
    }),
  );

  app.delete(
    '/api/auth/identities/:provider',
    { onRequest: guards.user, schema: { params: providerParams, querystring: noQuery, body: noBody } },
    async (request) => {
      const caller = callerOf(request);
      const name = providerName(request.params.provider);
      if (!caller.passwordHash) throw new HttpError(400, NEEDS_PASSWORD(name));
      if (!(await identities.unlink(request.params.provider, caller.id))) {
        throw new HttpError(404, `${name} is not connected`);
      }
      return { message: `${name} disconnected` };
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
      const finished = await signIn.finish(query, cookieState, {
        ...(request.headers['user-agent'] ? { userAgent: request.headers['user-agent'] } : {}),
        ip: request.ip,
      });
      if (!finished.ok) return fail(reply, finished.code, finished.reason, finished.linking);
      if (finished.value.kind === 'linked') {
        return redirect(reply, `/?${new URLSearchParams({ connected: request.params.provider })}`);
      }
      const { tokens, browserNonce } = finished.value;
      const back = new URLSearchParams({
        access_token: tokens.access_token,
        refresh_token: tokens.refresh_token,
      });
      // The web app takes the tokens only when the nonce is the one it started this sign-in with.
      if (browserNonce) back.set('nonce', browserNonce);
      return redirect(reply, `/?${back}`);
    },
  );
}

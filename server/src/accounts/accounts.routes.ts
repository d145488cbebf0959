import type { FastifyContextConfig, FastifyReply, FastifyRequest } from 'fastify';
import { HttpError } from '../http/errors.js';
import type { HttpApp } from '../http/http-app.js';
import { idParams, noBody, noQuery } from '../http/validation.js';
import { callerOf, toUserView } from '../users/index.js';
import { ACCESS_TOKEN_TTL_SECONDS } from './access-token.js';
import {
  codeBody,
  disableTwoFactorBody,
  loginStartBody,
  ownAccountBody,
  ownCodeBody,
  passwordChangeBody,
  pendingUserBody,
  reauthBody,
  refreshTokenBody,
  resetConfirmBody,
  resetRequestBody,
  signupBody,
} from './accounts.schemas.js';
import type { AccountsService } from './accounts.service.js';
import { AUTH_COOKIE, type Authenticator } from './authenticate.js';
import type { RefreshSessions } from './refresh-sessions.js';
import type { ClientInfo } from './session-tokens.js';
import { toSessionView } from './session-view.js';
import type { SignInService } from './sign-in.service.js';

export interface AccountsRoutesDeps {
  accounts: AccountsService;
  signIn: SignInService;
  auth: Authenticator;
  sessions: Pick<RefreshSessions, 'listActive' | 'revokeOthers' | 'revokeSession'>;
  /** Route config limiting unauthenticated calls per client address (AUTH_RATE_LIMIT). */
  limit: FastifyContextConfig;
  /** PUBLIC_URL is https: the auth_token cookie is Secure. */
  secureCookie: boolean;
  /** "Sign out of all other sessions" revokes the caller's API tokens too (docs/api.md#api-tokens). */
  revokeApiTokens?: (userId: string) => Promise<void>;
}

/** Calls that check the current password: 10 per user per 15 minutes, on top of the lockout. */
export const PASSWORD_CHECKS_PER_WINDOW = 10;
const passwordChecks: FastifyContextConfig = {
  rateLimit: {
    max: PASSWORD_CHECKS_PER_WINDOW,
    timeWindow: 15 * 60_000,
    hook: 'preHandler',
    keyGenerator: (request: FastifyRequest) => `password-check:${request.caller?.id ?? request.ip}`,
  },
};

const clientOf = (request: FastifyRequest): ClientInfo => ({
  ...(request.headers['user-agent'] ? { userAgent: request.headers['user-agent'] } : {}),
  ip: request.ip,
});

/** docs/api.md#accounts: every /api/auth call of sign-up, sign-in, sessions, codes and passwords. */
export function registerAccountsRoutes(
  app: HttpApp,
  { accounts, signIn, auth, sessions, limit, secureCookie, revokeApiTokens }: AccountsRoutesDeps,
) {
  const open = { config: limit };
  const signedIn = { onRequest: auth.user };
  const post = <Body>(body: Body) => ({ querystring: noQuery, body });

  // Nothing of /api/auth may sit in a cache (tokens, the caller's own account), unless a route
  // says otherwise (profile pictures).
  app.addHook('onSend', (request, reply, payload, done) => {
    if (request.url.startsWith('/api/auth/') && !reply.hasHeader('cache-control')) {
      reply.header('cache-control', 'no-store');
    }
    done(null, payload);
  });
  /**
   * Every answer that carries a new access token also sets it as the auth_token cookie (for the
   * device stream and pictures): HttpOnly, so no script reads it, SameSite=Strict, Secure on https,
   * and as long-lived as the token.
   */
  const withCookie = <T>(reply: FastifyReply, result: T): T => {
    const token = (result as { access_token?: unknown }).access_token;
    if (typeof token === 'string') {
      reply.setCookie(AUTH_COOKIE, token, {
        path: '/',
        httpOnly: true,
        sameSite: 'strict',
        secure: secureCookie,
        maxAge: ACCESS_TOKEN_TTL_SECONDS,
      });
    }
    return result;
  };

  app.post('/api/auth/signup', { ...open, schema: post(signupBody) }, async (request, reply) =>
    reply.code(201).send(await accounts.signup(request.body, clientOf(request))),
  );
  app.post('/api/auth/login/start', { ...open, schema: post(loginStartBody) }, async (request, reply) =>
    withCookie(reply, await signIn.loginStart(request.body, clientOf(request))),
  );
  app.post('/api/auth/login/finish', { ...open, schema: post(codeBody) }, async (request, reply) =>
    withCookie(reply, await signIn.loginFinish(request.body, clientOf(request))),
  );
  app.post('/api/auth/refresh', { ...open, schema: post(refreshTokenBody) }, async (request, reply) =>
    withCookie(reply, await signIn.refresh(request.body, clientOf(request))),
  );
  app.post('/api/auth/logout', { ...open, schema: post(refreshTokenBody) }, async (request, reply) => {
    reply.clearCookie(AUTH_COOKIE, { path: '/', httpOnly: true, sameSite: 'strict', secure: secureCookie });
    return signIn.logout(request.body);
  });
  app.get('/api/auth/me', { ...signedIn, schema: { querystring: noQuery } }, async (request) =>
    toUserView(callerOf(request)),
  );

  app.post('/api/auth/email/verify/request', { ...signedIn, schema: post(ownAccountBody) }, (request) =>
    accounts.requestEmailVerification(callerOf(request), request.body),
  );
  app.post('/api/auth/email/verify/confirm', { ...signedIn, schema: post(ownCodeBody) }, (request) =>
    accounts.confirmEmail(callerOf(request), request.body),
  );

  app.post('/api/auth/2fa/email/setup', { ...signedIn, schema: post(ownAccountBody) }, (request) =>
    accounts.setupTwoFactor(callerOf(request), request.body),
  );
  app.post('/api/auth/2fa/email/request', { ...open, schema: post(pendingUserBody) }, (request) =>
    signIn.resendLoginCode(request.body),
  );
  app.post('/api/auth/2fa/email/verify', { ...open, schema: post(codeBody) }, async (request, reply) =>
    withCookie(
      reply,
      await accounts.verifyTwoFactor(await auth.caller(request), request.body, clientOf(request)),
    ),
  );
  app.post(
    '/api/auth/2fa/disable',
    { ...signedIn, config: passwordChecks, schema: post(disableTwoFactorBody) },
    (request) => accounts.disableTwoFactor(callerOf(request), request.body),
  );

  app.post('/api/auth/password/reset/request', { ...open, schema: post(resetRequestBody) }, (request) =>
    accounts.requestPasswordReset(request.body),
  );
  app.post('/api/auth/password/reset/confirm', { ...open, schema: post(resetConfirmBody) }, (request) =>
    accounts.confirmPasswordReset(request.body),
  );
  app.post(
    '/api/auth/password/change',
    { ...signedIn, config: passwordChecks, schema: post(passwordChangeBody) },
    async (request, reply) =>
      withCookie(reply, await accounts.changePassword(callerOf(request), request.body, clientOf(request))),
  );

  // The password again, for a call that needs a recent sign-in (Settings → Connect {provider}).
  app.post('/api/auth/reauth', { ...signedIn, config: passwordChecks, schema: post(reauthBody) }, (request) =>
    accounts.reauthenticate(callerOf(request), auth.sessionOf(request), request.body),
  );

  // Settings → Sessions: the caller's own sign-in sessions, and signing them out.
  app.get('/api/auth/sessions', { ...signedIn, schema: { querystring: noQuery } }, async (request) => {
    const current = auth.sessionOf(request);
    const rows = await sessions.listActive(callerOf(request).id);
    return { sessions: rows.map((row) => toSessionView(row, current)) };
  });
  app.post(
    '/api/auth/sessions/revoke-others',
    { ...signedIn, schema: { querystring: noQuery, body: noBody } },
    async (request) => {
      const current = auth.sessionOf(request);
      if (current) await sessions.revokeOthers(callerOf(request).id, current);
      await revokeApiTokens?.(callerOf(request).id);
      return { message: 'Signed out of all other sessions' };
    },
  );
  app.delete(
    '/api/auth/sessions/:id',
    { ...signedIn, schema: { params: idParams, querystring: noQuery, body: noBody } },
    async (request) => {
      if (!(await sessions.revokeSession(callerOf(request).id, request.params.id))) {
        throw new HttpError(404, 'Session not found');
      }
      return { message: 'Session signed out' };
    },
  );
}

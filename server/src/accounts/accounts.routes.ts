import type { FastifyContextConfig } from 'fastify';
import type { HttpApp } from '../http/http-app.js';
import { noQuery } from '../http/validation.js';
import { callerOf, toUserView } from '../users/index.js';
import {
  codeBody,
  disableTwoFactorBody,
  loginStartBody,
  ownAccountBody,
  ownCodeBody,
  passwordChangeBody,
  pendingUserBody,
  refreshTokenBody,
  resetConfirmBody,
  resetRequestBody,
  signupBody,
} from './accounts.schemas.js';
import type { AccountsService } from './accounts.service.js';
import type { Authenticator } from './authenticate.js';
import type { SignInService } from './sign-in.service.js';

export interface AccountsRoutesDeps {
  accounts: AccountsService;
  signIn: SignInService;
  auth: Authenticator;
  /** Route config limiting unauthenticated calls per client address (AUTH_RATE_LIMIT). */
  limit: FastifyContextConfig;
}

/** docs/api.md#accounts: every /api/auth call of sign-up, sign-in, sessions, codes and passwords. */
export function registerAccountsRoutes(app: HttpApp, { accounts, signIn, auth, limit }: AccountsRoutesDeps) {
  const open = { config: limit };
  const signedIn = { onRequest: auth.user };
  const post = <Body>(body: Body) => ({ querystring: noQuery, body });

  app.post('/api/auth/signup', { ...open, schema: post(signupBody) }, async (request, reply) =>
    reply.code(201).send(await accounts.signup(request.body)),
  );
  app.post('/api/auth/login/start', { ...open, schema: post(loginStartBody) }, (request) =>
    signIn.loginStart(request.body),
  );
  app.post('/api/auth/login/finish', { ...open, schema: post(codeBody) }, (request) =>
    signIn.loginFinish(request.body),
  );
  app.post('/api/auth/refresh', { ...open, schema: post(refreshTokenBody) }, (request) =>
    signIn.refresh(request.body),
  );
  app.post('/api/auth/logout', { ...open, schema: post(refreshTokenBody) }, (request) =>
    signIn.logout(request.body),
  );
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
  app.post('/api/auth/2fa/email/verify', { ...open, schema: post(codeBody) }, async (request) =>
    accounts.verifyTwoFactor(await auth.caller(request), request.body),
  );
  app.post('/api/auth/2fa/disable', { ...signedIn, schema: post(disableTwoFactorBody) }, (request) =>
    accounts.disableTwoFactor(callerOf(request), request.body),
  );

  app.post('/api/auth/password/reset/request', { ...open, schema: post(resetRequestBody) }, (request) =>
    accounts.requestPasswordReset(request.body),
  );
  app.post('/api/auth/password/reset/confirm', { ...open, schema: post(resetConfirmBody) }, (request) =>
    accounts.confirmPasswordReset(request.body),
  );
  app.post('/api/auth/password/change', { ...signedIn, schema: post(passwordChangeBody) }, (request) =>
    accounts.changePassword(callerOf(request), request.body),
  );
}

import type { FastifyInstance, RouteShorthandOptions } from 'fastify';
import type { AppContext } from '../app.js';
import { toUserView } from '../users/user.view.js';
import type { UserRecord } from '../users/users.repository.js';
import { answer } from './accounts.errors.js';
import type { AccountsService } from './accounts.service.js';
import type { SigninService } from './signin.service.js';

interface Services {
  accounts: AccountsService;
  signin: SigninService;
  /** onRequest hook limiting unauthenticated calls per IP (AUTH_RATE_LIMIT). */
  limit: NonNullable<RouteShorthandOptions['onRequest']>;
}

/** SPEC 7.1: every /api/auth call of sign-up, sign-in, sessions, codes and passwords. */
export function registerAccountsRoutes(app: FastifyInstance, context: AppContext, services: Services) {
  const { accounts, signin, limit } = services;
  const open: RouteShorthandOptions = { onRequest: limit };
  const signedIn: RouteShorthandOptions = { preHandler: context.auth.requireUser };
  const caller = (request: { caller?: UserRecord }): UserRecord => {
    if (!request.caller) throw new Error('requireUser did not run');
    return request.caller;
  };

  app.post('/api/auth/signup', open, (req, reply) => answer(reply, () => accounts.signup(req.body), 201));
  app.post('/api/auth/login/start', open, (req, reply) => answer(reply, () => signin.loginStart(req.body)));
  app.post('/api/auth/login/finish', open, (req, reply) => answer(reply, () => signin.loginFinish(req.body)));
  app.post('/api/auth/refresh', open, (req, reply) => answer(reply, () => signin.refresh(req.body)));
  app.post('/api/auth/logout', open, (req, reply) => answer(reply, () => signin.logout(req.body)));
  app.get('/api/auth/me', signedIn, async (req) => toUserView(caller(req)));

  app.post('/api/auth/email/verify/request', signedIn, (req, reply) =>
    answer(reply, () => accounts.requestEmailVerification(caller(req), req.body)),
  );
  app.post('/api/auth/email/verify/confirm', signedIn, (req, reply) =>
    answer(reply, () => accounts.confirmEmail(caller(req), req.body)),
  );

  app.post('/api/auth/2fa/email/setup', signedIn, (req, reply) =>
    answer(reply, () => accounts.setupTwoFactor(caller(req), req.body)),
  );
  app.post('/api/auth/2fa/email/request', open, (req, reply) =>
    answer(reply, () => signin.resendLoginCode(req.body)),
  );
  app.post('/api/auth/2fa/email/verify', open, async (req, reply) => {
    const user = await context.auth.caller(req);
    return answer(reply, () => accounts.verifyTwoFactor(user, req.body));
  });
  app.post('/api/auth/2fa/disable', signedIn, (req, reply) =>
    answer(reply, () => accounts.disableTwoFactor(caller(req), req.body)),
  );

  app.post('/api/auth/password/reset/request', open, (req, reply) =>
    answer(reply, () => accounts.requestPasswordReset(req.body)),
  );
  app.post('/api/auth/password/reset/confirm', open, (req, reply) =>
    answer(reply, () => accounts.confirmPasswordReset(req.body)),
  );
  app.post('/api/auth/password/change', signedIn, (req, reply) =>
    answer(reply, () => accounts.changePassword(caller(req), req.body)),
  );
}

import type { FastifyContextConfig } from 'fastify';
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { ActivityLog } from '../activity/index.js';
import type { AddressBudget } from '../http/rate-limit.js';
import type { Module } from '../lifecycle/module.js';
import type { Mailer } from '../mail/index.js';
import type { Database } from '../storage/schema.js';
import type { UsersRepository } from '../users/index.js';
import { AccessTokens } from './access-token.js';
import { registerAccountsRoutes } from './accounts.routes.js';
import { AccountsService } from './accounts.service.js';
import { seedAdmin } from './admin-seed.js';
import { AuthSessionsRepository } from './auth-sessions.repository.js';
import { type ApiTokenGuard, Authenticator } from './authenticate.js';
import { CodeMail } from './code-mail.js';
import { OneTimeCodes } from './codes.js';
import { CodesRepository } from './codes.repository.js';
import { startHousekeeping } from './housekeeping.js';
import { LiveSessions } from './live-sessions.js';
import { LoginLockout } from './lockout.js';
import { LockoutRepository } from './lockout.repository.js';
import { IdentitiesRepository } from './oidc/identities.repository.js';
import { PasswordHasher } from './password-hasher.js';
import { RefreshSessions } from './refresh-sessions.js';
import { SessionEvents } from './session-events.js';
import type { SessionTokens } from './session-tokens.js';
import { SignInService } from './sign-in.service.js';

export interface AccountsModuleDeps {
  db: Kysely<Database>;
  log: Logger;
  users: UsersRepository;
  mailer: Mailer;
  /** The key access tokens are signed with; it stays inside this module. */
  authSecret: string;
  publicUrl: string;
  admin: { email: string | undefined; password: string | undefined };
  /** Route config limiting unauthenticated calls per client address (AUTH_RATE_LIMIT). */
  limit: FastifyContextConfig;
  /** Sign-ups per client address (SIGNUP_RATE_LIMIT); none: not limited. */
  signups?: AddressBudget | undefined;
  /** Where sign-ins are recorded (docs/activity.md); none: not recorded. */
  activity?: ActivityLog;
  /** API tokens (docs/api.md#api-tokens): their calls, and revoking an owner's at a reset or sign-out everywhere. */
  apiTokens?: { guard: ApiTokenGuard; revokeAllOf(userId: string): Promise<void> };
}

/** What the accounts module offers the others: who is calling, and sign-in sessions. */
export interface AccountsModule extends Module {
  /** Route guards and token reading (for the device stream). */
  auth: Authenticator;
  /** Issuing and revoking sessions (user administration, identity providers). */
  sessions: SessionTokens;
  /** Mails an account's owner a notice (identity providers: a provider was connected). */
  notify: CodeMail['notify'];
}

/** /api/auth/*: sign-up, sign-in, sessions, codes and the account's own settings. */
export function accountsModule(deps: AccountsModuleDeps): AccountsModule {
  const { db, log, users } = deps;
  const tokens = new AccessTokens(deps.authSecret);
  const events = new SessionEvents();
  const sessions = new RefreshSessions(db, tokens, events);
  const auth = new Authenticator(
    tokens,
    users,
    new LiveSessions(new AuthSessionsRepository(db), events),
    events,
    deps.publicUrl,
    deps.apiTokens?.guard,
  );
  const hasher = new PasswordHasher();
  const codes = new OneTimeCodes(new CodesRepository(db), tokens);
  const codeMail = new CodeMail(codes, deps.mailer, deps.publicUrl, log);
  const lockout = new LoginLockout(new LockoutRepository(db));
  const signIn = new SignInService({
    users,
    sessions,
    hasher,
    codes,
    codeMail,
    lockout,
    ...(deps.activity ? { activity: deps.activity } : {}),
  });
  const accounts = new AccountsService({
    users,
    sessions,
    hasher,
    codes,
    codeMail,
    lockout,
    signIn,
    log,
    identities: new IdentitiesRepository(db),
    ...(deps.signups ? { signups: deps.signups } : {}),
    ...(deps.apiTokens ? { revokeApiTokens: (id: string) => deps.apiTokens!.revokeAllOf(id) } : {}),
  });
  let stopHousekeeping: (() => void) | undefined;

  return {
    name: 'accounts',
    auth,
    sessions,
    notify: (to, wording) => codeMail.notify(to, wording),
    register: (app) =>
      registerAccountsRoutes(app, {
        accounts,
        signIn,
        auth,
        sessions,
        limit: deps.limit,
        secureCookie: deps.publicUrl.startsWith('https:'),
        ...(deps.apiTokens ? { revokeApiTokens: (id: string) => deps.apiTokens!.revokeAllOf(id) } : {}),
      }),
    async start() {
      void hasher.warmUp();
      await seedAdmin(deps.admin.email, deps.admin.password, users, hasher, log);
      stopHousekeeping = startHousekeeping(db, log);
    },
    async close() {
      stopHousekeeping?.();
      await hasher.close();
    },
  };
}

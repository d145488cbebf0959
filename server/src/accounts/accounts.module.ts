import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../app.js';
import { Mailer } from '../mail/mailer.js';
import { registerAccountsRoutes } from './accounts.routes.js';
import { AccountsService } from './accounts.service.js';
import { seedAdmin } from './admin-seed.js';
import { CodeMail } from './code-mail.js';
import { OneTimeCodes } from './codes.js';
import { CodesRepository } from './codes.repository.js';
import { startHousekeeping } from './housekeeping.js';
import { LoginLockout } from './lockout.js';
import { LockoutRepository } from './lockout.repository.js';
import { PasswordHasher } from './password-hasher.js';
import { authRateLimiter } from './rate-limit.js';
import { RefreshSessions } from './refresh-sessions.js';
import { SigninService } from './signin.service.js';

/** Registers /api/auth/* (sign-up, sign-in, sessions, codes, settings). */
export async function registerAccounts(app: FastifyInstance, context: AppContext): Promise<void> {
  const { config, storage, users, log } = context;
  const sessions =
    context.sessions instanceof RefreshSessions
      ? context.sessions
      : new RefreshSessions(storage.db, context.accessTokens);
  const hasher = new PasswordHasher();
  void hasher.warmUp();
  const mailer = new Mailer({ smtpUrl: config.smtpUrl, from: config.mailFrom, dataDir: config.dataDir, log });
  const codes = new OneTimeCodes(new CodesRepository(storage.db), context.accessTokens);
  const codeMail = new CodeMail(codes, mailer, config.publicUrl, log);
  const lockout = new LoginLockout(new LockoutRepository(storage.db));

  const signin = new SigninService({ users, sessions, hasher, codes, codeMail, lockout });
  const accounts = new AccountsService({ users, sessions, hasher, codes, codeMail, lockout, signin, log });

  await seedAdmin(config.adminEmail, config.adminPassword, users, hasher, log);
  registerAccountsRoutes(app, context, { accounts, signin, limit: authRateLimiter(config.authRateLimit) });
  const stopHousekeeping = startHousekeeping(storage.db, log);
  app.addHook('onClose', async () => {
    stopHousekeeping();
    mailer.close();
    await hasher.close();
  });
}

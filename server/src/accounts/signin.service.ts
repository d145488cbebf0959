import type { LoginStartResponse, TokenPair } from '@hearth/contracts';
import type { UserRecord, UsersRepository } from '../users/users.repository.js';
import { AccountsError, MESSAGES } from './accounts.errors.js';
import { canUseSession } from './authenticate.js';
import type { CodeMail } from './code-mail.js';
import type { CodeCheck, OneTimeCodes } from './codes.js';
import { field } from './fields.js';
import { adminLockedError, type LoginLockout } from './lockout.js';
import type { PasswordHasher } from './password-hasher.js';
import type { RefreshSessions } from './refresh-sessions.js';

export interface SigninDeps {
  users: UsersRepository;
  sessions: RefreshSessions;
  hasher: PasswordHasher;
  codes: OneTimeCodes;
  codeMail: CodeMail;
  lockout: LoginLockout;
}

/** Signing in: password, the e-mailed second factor, refresh and logout. */
export class SigninService {
  constructor(private readonly deps: SigninDeps) {}

  async loginStart(body: unknown): Promise<LoginStartResponse> {
    const { users, hasher, lockout, sessions } = this.deps;
    const email = field(body, 'email').trim();
    const password = field(body, 'password');
    if (!email || !password) throw new AccountsError(400, MESSAGES.emailAndPasswordRequired);

    await failClosed(() => lockout.assertOpen(email));
    const user = await users.findByEmail(email);
    const ok = user?.passwordHash
      ? await hasher.verify(user.passwordHash, password)
      : await hasher.verifyDummy(password);
    if (!user || !ok) {
      await lockout.recordFailure(email);
      throw new AccountsError(401, MESSAGES.invalidCredentials);
    }
    if (!canUseSession(user)) throw adminLockedError();
    await lockout.reset(email);

    if (user.twoFactorEnabled) {
      await this.startChallenge(user);
      return { '2fa_required': true, user_id: user.id, '2fa_type': 'email' };
    }
    return { '2fa_required': false, ...(await sessions.issue(user)) };
  }

  /** `/login/finish`, and `/2fa/email/verify` without a set-up in progress. */
  async loginFinish(body: unknown): Promise<TokenPair> {
    const { lockout, sessions } = this.deps;
    const user = await this.pendingUser(body);
    await failClosed(() => lockout.assertOpen(user.email));
    const result = await this.deps.codes.check(user.id, 'login_2fa', field(body, 'code'));
    if (result !== 'ok') {
      if (result !== 'none') await lockout.recordFailure(user.email);
      throw codeError(result);
    }
    if (!canUseSession(user)) throw adminLockedError();
    await lockout.reset(user.email);
    return sessions.issue(user);
  }

  /** "Request New Code" on the 2FA form. */
  async resendLoginCode(body: unknown): Promise<{ message: string }> {
    const user = await this.pendingUser(body);
    await this.deps.codeMail.send(user, 'login_2fa');
    return { message: 'New code sent to your email' };
  }

  async refresh(body: unknown): Promise<TokenPair> {
    const { pair } = await this.deps.sessions.rotate(field(body, 'refresh_token'));
    return pair;
  }

  async logout(body: unknown): Promise<{ message: string }> {
    await this.deps.sessions.revokeFamilyOf(field(body, 'refresh_token'));
    return { message: 'Logged out' };
  }

  private async pendingUser(body: unknown): Promise<UserRecord> {
    const userId = field(body, 'user_id');
    const user = userId ? await this.deps.users.findById(userId) : undefined;
    if (!user || !(await this.deps.codes.pending(user.id, 'login_2fa'))) {
      throw new AccountsError(400, MESSAGES.noPending2fa);
    }
    return user;
  }

  /** Mails the sign-in code; a second start within the cooldown keeps the code already sent. */
  private async startChallenge(user: UserRecord): Promise<void> {
    try {
      await this.deps.codeMail.send(user, 'login_2fa');
    } catch (error) {
      const cooling = error instanceof AccountsError && error.extra.retry_after !== undefined;
      if (!cooling || !(await this.deps.codes.pending(user.id, 'login_2fa'))) throw error;
    }
  }
}

export function codeError(result: Exclude<CodeCheck, 'ok'>): AccountsError {
  return new AccountsError(400, result === 'burned' ? MESSAGES.codeBurned : MESSAGES.invalidCode);
}

/** Lockout state that can't be read must not let sign-in through unthrottled. */
async function failClosed(check: () => Promise<void>): Promise<void> {
  try {
    await check();
  } catch (error) {
    if (error instanceof AccountsError) throw error;
    throw new AccountsError(503, MESSAGES.signInUnavailable);
  }
}

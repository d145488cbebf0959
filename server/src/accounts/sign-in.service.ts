import type { LoginStartResponse, TokenPair } from '@hearth/contracts';
import { HttpError } from '../http/errors.js';
import type { UserRecord, UsersRepository } from '../users/index.js';
import { MESSAGES } from './accounts.errors.js';
import type { CodeInput, LoginStartInput, PendingUserInput, RefreshTokenInput } from './accounts.schemas.js';
import { canUseSession } from './authenticate.js';
import type { CodeMail } from './code-mail.js';
import type { CodeCheck, OneTimeCodes } from './codes.js';
import { adminLockedError, type LoginLockout } from './lockout.js';
import type { PasswordHasher } from './password-hasher.js';
import type { RefreshSessions } from './refresh-sessions.js';
import type { ClientInfo } from './session-tokens.js';

/** What signing in needs, narrowed so unit tests can hand in fakes. */
export interface SignInDeps {
  users: Pick<UsersRepository, 'findByEmail' | 'findById'>;
  sessions: Pick<RefreshSessions, 'issue' | 'rotate' | 'revokeFamilyOf'>;
  hasher: Pick<PasswordHasher, 'verify' | 'verifyDummy'>;
  codes: Pick<OneTimeCodes, 'check' | 'pending'>;
  codeMail: Pick<CodeMail, 'send'>;
  lockout: Pick<LoginLockout, 'assertOpen' | 'reserve' | 'recordFailure' | 'reset'>;
}

/** Signing in: password, the e-mailed second factor, refresh and logout. */
export class SignInService {
  constructor(private readonly deps: SignInDeps) {}

  async loginStart(
    { email, password }: LoginStartInput,
    client: ClientInfo = {},
  ): Promise<LoginStartResponse> {
    const { users, hasher, lockout, sessions } = this.deps;
    // The attempt is counted before anything is hashed: parallel guesses can't outrun the count.
    const attempt = await failClosed(() => lockout.reserve(email));
    const user = await users.findByEmail(email);
    const ok = user?.passwordHash
      ? await hasher.verify(user.passwordHash, password)
      : await hasher.verifyDummy(password);
    if (!user || !ok) {
      await attempt.failed();
      throw new HttpError(401, MESSAGES.invalidCredentials);
    }
    await attempt.succeeded();
    if (!canUseSession(user)) throw adminLockedError();

    if (user.twoFactorEnabled) {
      await this.startChallenge(user);
      return { '2fa_required': true, user_id: user.id, '2fa_type': 'email' };
    }
    return { '2fa_required': false, ...(await sessions.issue(user, { client })) };
  }

  /** `/login/finish`, and `/2fa/email/verify` without a set-up in progress. */
  async loginFinish({ user_id, code }: CodeInput, client: ClientInfo = {}): Promise<TokenPair> {
    const { lockout, sessions } = this.deps;
    const user = await this.pendingUser(user_id);
    await failClosed(() => lockout.assertOpen(user.email));
    const result = await this.deps.codes.check(user.id, 'login_2fa', code);
    if (result !== 'ok') {
      if (result !== 'none') await lockout.recordFailure(user.email);
      throw codeError(result);
    }
    if (!canUseSession(user)) throw adminLockedError();
    await lockout.reset(user.email);
    return sessions.issue(user, { client });
  }

  /** "Request New Code" on the 2FA form. */
  async resendLoginCode({ user_id }: PendingUserInput): Promise<{ message: string }> {
    const user = await this.pendingUser(user_id);
    await this.deps.codeMail.send(user, 'login_2fa');
    return { message: 'New code sent to your email' };
  }

  async refresh({ refresh_token }: RefreshTokenInput, client: ClientInfo = {}): Promise<TokenPair> {
    const { pair } = await this.deps.sessions.rotate(refresh_token, client);
    return pair;
  }

  async logout({ refresh_token }: RefreshTokenInput): Promise<{ message: string }> {
    await this.deps.sessions.revokeFamilyOf(refresh_token);
    return { message: 'Logged out' };
  }

  private async pendingUser(userId: string): Promise<UserRecord> {
    const user = userId ? await this.deps.users.findById(userId) : undefined;
    if (!user || !(await this.deps.codes.pending(user.id, 'login_2fa'))) {
      throw new HttpError(400, MESSAGES.noPending2fa);
    }
    return user;
  }

  /** Mails the sign-in code; a second start within the cooldown keeps the code already sent. */
  private async startChallenge(user: UserRecord): Promise<void> {
    try {
      await this.deps.codeMail.send(user, 'login_2fa');
    } catch (error) {
      const cooling = error instanceof HttpError && error.extra.retry_after !== undefined;
      if (!cooling || !(await this.deps.codes.pending(user.id, 'login_2fa'))) throw error;
    }
  }
}

export function codeError(result: Exclude<CodeCheck, 'ok'>): HttpError {
  return new HttpError(400, result === 'burned' ? MESSAGES.codeBurned : MESSAGES.invalidCode);
}

/** Lockout state that can't be read must not let sign-in through unthrottled. */
async function failClosed<T>(check: () => Promise<T>): Promise<T> {
  try {
    return await check();
  } catch (error) {
    if (error instanceof HttpError) throw error;
    throw new HttpError(503, MESSAGES.signInUnavailable);
  }
}

import type { LoginStartResponse, TokenPair } from '@hearth/contracts';
import { type ActivityLog, noActivity, resultOf, userActor } from '../activity/index.js';
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
  /** Where sign-ins and failed attempts are recorded (docs/activity.md); none: not recorded. */
  activity?: ActivityLog;
}

/** Signing in: password, the e-mailed second factor, refresh and logout. */
export class SignInService {
  constructor(private readonly deps: SignInDeps) {}

  /**
   * docs/activity.md#kinds: one `sign_in` entry per attempt that ends (a session issued, or the
   * attempt refused); a password accepted while a code is still due records nothing yet. The
   * attempted e-mail address is kept, never the password or code.
   */
  private async recorded<T>(
    email: string,
    step: 'password' | 'code',
    client: ClientInfo,
    attempt: (found: (user: UserRecord) => void) => Promise<T>,
    done: (value: T) => boolean,
  ): Promise<T> {
    const activity = this.deps.activity ?? noActivity;
    let user: UserRecord | undefined;
    const entry = () => ({
      actor: user ? userActor(user) : { type: 'user' as const, label: email },
      ip: client.ip,
      client: client.userAgent,
      kind: 'sign_in' as const,
    });
    try {
      const value = await attempt((found) => {
        user = found;
      });
      if (done(value)) activity.record({ ...entry(), result: 'ok', detail: { email, step } });
      return value;
    } catch (error) {
      const reason = error instanceof HttpError ? error.message : 'Internal error';
      activity.record({ ...entry(), result: resultOf(error), detail: { email, step, reason } });
      throw error;
    }
  }

  async loginStart(input: LoginStartInput, client: ClientInfo = {}): Promise<LoginStartResponse> {
    return this.recorded(
      input.email.slice(0, 320),
      'password',
      client,
      (found) => this.passwordStep(input, client, found),
      (response) => !response['2fa_required'],
    );
  }

  private async passwordStep(
    { email, password }: LoginStartInput,
    client: ClientInfo,
    found: (user: UserRecord) => void,
  ): Promise<LoginStartResponse> {
    const { users, hasher, lockout, sessions } = this.deps;
    // The attempt is counted before anything is hashed: parallel guesses can't outrun the count.
    const attempt = await failClosed(() => lockout.reserve(email));
    const user = await users.findByEmail(email);
    if (user) found(user);
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
  async loginFinish(input: CodeInput, client: ClientInfo = {}): Promise<TokenPair> {
    const user = await this.pendingUser(input.user_id);
    return this.recorded(
      user.email,
      'code',
      client,
      (found) => {
        found(user);
        return this.codeStep(user, input, client);
      },
      () => true,
    );
  }

  private async codeStep(user: UserRecord, { code }: CodeInput, client: ClientInfo): Promise<TokenPair> {
    const { lockout, sessions } = this.deps;
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

import type { MessageWithUser, PasswordChangeResponse, User } from '@hearth/contracts';
import type { Logger } from 'pino';
import { HttpError } from '../http/errors.js';
import { normaliseEmail, toUserView, type UserRecord, type UsersRepository } from '../users/index.js';
import { MESSAGES } from './accounts.errors.js';
import type {
  DisableTwoFactorInput,
  OwnAccountInput,
  OwnCodeInput,
  PasswordChangeInput,
  ResetConfirmInput,
  ResetRequestInput,
  SignupInput,
} from './accounts.schemas.js';
import type { CodePurpose } from './accounts.tables.js';
import type { CodeMail } from './code-mail.js';
import type { OneTimeCodes } from './codes.js';
import type { LoginLockout } from './lockout.js';
import type { PasswordHasher } from './password-hasher.js';
import { passwordProblem } from './password-rules.js';
import type { RefreshSessions } from './refresh-sessions.js';
import { codeError, type SignInService } from './sign-in.service.js';

/** What the account's own settings need, narrowed so unit tests can hand in fakes. */
export interface AccountsDeps {
  users: Pick<
    UsersRepository,
    | 'create'
    | 'findByEmail'
    | 'findById'
    | 'findByUserName'
    | 'setEmailConfirmed'
    | 'setPasswordHash'
    | 'setTwoFactorEnabled'
  >;
  sessions: Pick<RefreshSessions, 'issue' | 'revokeAllForUser'>;
  hasher: Pick<PasswordHasher, 'hash' | 'verify'>;
  codes: Pick<OneTimeCodes, 'check' | 'pending' | 'cancelAll'>;
  codeMail: Pick<CodeMail, 'send' | 'sendInBackground'>;
  lockout: Pick<LoginLockout, 'recordFailure' | 'reset'>;
  signIn: Pick<SignInService, 'loginFinish'>;
  log: Logger;
}

/** Sign-up and the account's own settings: e-mail verification, 2FA, passwords. */
export class AccountsService {
  constructor(private readonly deps: AccountsDeps) {}

  async signup(input: SignupInput): Promise<User> {
    const { users, hasher, codeMail } = this.deps;
    const { email, user_name: userName, first_name: firstName, last_name: lastName, password } = input;
    await assertPassword(password);
    await this.assertFree(email, userName);

    const passwordHash = await hasher.hash(password);
    let user: UserRecord;
    try {
      user = await users.create({
        email,
        userName,
        firstName,
        lastName,
        passwordHash,
        role: 'admin-if-first',
      });
    } catch (error) {
      await this.assertFree(email, userName); // lost a race for the same address or name
      throw error;
    }
    codeMail.sendInBackground(user, 'email_verify');
    return toUserView(user);
  }

  async requestEmailVerification(caller: UserRecord, input: OwnAccountInput): Promise<{ message: string }> {
    assertSelf(caller, input.user_id);
    if (caller.emailConfirmed) throw new HttpError(400, MESSAGES.emailAlreadyVerified);
    await this.deps.codeMail.send(caller, 'email_verify');
    return { message: 'Check your email for the code.' };
  }

  async confirmEmail(caller: UserRecord, input: OwnCodeInput): Promise<MessageWithUser> {
    assertSelf(caller, input.user_id);
    if (caller.emailConfirmed) throw new HttpError(400, MESSAGES.emailAlreadyVerified);
    await this.spendCode(caller, 'email_verify', input.code);
    await this.deps.users.setEmailConfirmed(caller.id, true);
    return { message: 'Email verified', user: await this.view(caller.id) };
  }

  async setupTwoFactor(caller: UserRecord, input: OwnAccountInput): Promise<{ message: string }> {
    assertSelf(caller, input.user_id);
    if (caller.twoFactorEnabled) throw new HttpError(400, MESSAGES.twoFactorAlreadyEnabled);
    await this.deps.codeMail.send(caller, '2fa_setup');
    return { message: 'Check your email for the 2FA code.' };
  }

  /**
   * `/2fa/email/verify`: signed in with a set-up code waiting, it turns 2FA on; otherwise it
   * completes a pending sign-in exactly like `/login/finish`.
   */
  async verifyTwoFactor(caller: UserRecord | undefined, input: OwnCodeInput) {
    const settingUp =
      caller &&
      (!input.user_id || input.user_id === caller.id) &&
      (await this.deps.codes.pending(caller.id, '2fa_setup'));
    if (!caller || !settingUp) return this.deps.signIn.loginFinish(input);
    await this.spendCode(caller, '2fa_setup', input.code);
    await this.deps.users.setTwoFactorEnabled(caller.id, true);
    return { message: '2FA enabled', user: await this.view(caller.id) };
  }

  async disableTwoFactor(caller: UserRecord, { password }: DisableTwoFactorInput): Promise<MessageWithUser> {
    if (!caller.twoFactorEnabled) throw new HttpError(400, MESSAGES.twoFactorNotEnabled);
    if (!caller.passwordHash || !(await this.deps.hasher.verify(caller.passwordHash, password))) {
      throw new HttpError(400, MESSAGES.wrongPassword);
    }
    await this.deps.users.setTwoFactorEnabled(caller.id, false);
    return { message: '2FA disabled', user: await this.view(caller.id) };
  }

  /** The same answer whether or not the address has an account; the work happens afterwards. */
  async requestPasswordReset({ email }: ResetRequestInput): Promise<{ message: string }> {
    void this.deps.users
      .findByEmail(email)
      .then((user) => user && this.deps.codeMail.sendInBackground(user, 'password_reset'))
      .catch((error) => this.deps.log.error({ err: error }, 'password reset request failed'));
    return { message: 'If an account exists for this email, a reset code has been sent' };
  }

  async confirmPasswordReset({ email, code, new_password }: ResetConfirmInput): Promise<{ message: string }> {
    const { users, hasher, sessions, lockout, codes } = this.deps;
    await assertPassword(new_password);
    const user = await users.findByEmail(email);
    if (!user) {
      await lockout.recordFailure(normaliseEmail(email)).catch(ignoreLockout);
      throw new HttpError(400, MESSAGES.invalidCode);
    }
    await this.spendCode(user, 'password_reset', code);
    await users.setPasswordHash(user.id, await hasher.hash(new_password));
    await users.setEmailConfirmed(user.id, true);
    await sessions.revokeAllForUser(user.id);
    await codes.cancelAll(user.id);
    await lockout.reset(user.email);
    return { message: 'Password reset successful' };
  }

  async changePassword(caller: UserRecord, input: PasswordChangeInput): Promise<PasswordChangeResponse> {
    const { users, hasher, sessions } = this.deps;
    const { current_password: current, new_password: next } = input;
    if (!caller.passwordHash || !(await hasher.verify(caller.passwordHash, current))) {
      throw new HttpError(400, MESSAGES.wrongPassword);
    }
    if (current === next) throw new HttpError(400, MESSAGES.samePassword);
    await assertPassword(next);
    await users.setPasswordHash(caller.id, await hasher.hash(next));
    await sessions.revokeAllForUser(caller.id);
    // Every other session ends; this one continues with a fresh pair.
    return { message: 'Password updated', ...(await sessions.issue(caller)) };
  }

  /** Spends a code of the caller; wrong tries count towards the sign-in lockout. */
  private async spendCode(user: UserRecord, purpose: CodePurpose, code: string): Promise<void> {
    const result = await this.deps.codes.check(user.id, purpose, code);
    if (result === 'ok') return;
    if (result !== 'none') await this.deps.lockout.recordFailure(user.email).catch(ignoreLockout);
    throw codeError(result);
  }

  private async assertFree(email: string, userName: string): Promise<void> {
    if (await this.deps.users.findByEmail(email)) throw new HttpError(409, MESSAGES.emailTaken);
    if (await this.deps.users.findByUserName(userName)) throw new HttpError(409, MESSAGES.userNameTaken);
  }

  private async view(id: string): Promise<User> {
    const user = await this.deps.users.findById(id);
    if (!user) throw new HttpError(401, 'Authentication required');
    return toUserView(user);
  }
}

async function assertPassword(password: string): Promise<void> {
  const problem = await passwordProblem(password);
  if (problem) throw new HttpError(400, problem);
}

/** Calls on the caller's own account only: a different `user_id` is refused. */
function assertSelf(caller: UserRecord, userId: string): void {
  if (userId && userId !== caller.id) throw new HttpError(403, MESSAGES.forbidden);
}

/** Where a code error is the answer, the lockout that a wrong code may start is not. */
function ignoreLockout(error: unknown): void {
  if (error instanceof HttpError && error.statusCode === 423) return;
  throw error;
}

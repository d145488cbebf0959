import type { MessageWithUser, PasswordChangeResponse, User } from '@hearth/contracts';
import type { Logger } from 'pino';
import { toUserView } from '../users/user.view.js';
import { normaliseEmail, type UserRecord } from '../users/users.repository.js';
import { AccountsError, MESSAGES } from './accounts.errors.js';
import type { CodePurpose } from './accounts.tables.js';
import { field, isEmail, NAME_MAX_LENGTH, USER_NAME } from './fields.js';
import { passwordProblem } from './password-rules.js';
import { codeError, type SigninDeps, type SigninService } from './signin.service.js';

export interface AccountsDeps extends SigninDeps {
  signin: SigninService;
  log: Logger;
}

/** Sign-up and the account's own settings: e-mail verification, 2FA, passwords. */
export class AccountsService {
  constructor(private readonly deps: AccountsDeps) {}

  async signup(body: unknown): Promise<User> {
    const { users, hasher, codeMail } = this.deps;
    const firstName = field(body, 'first_name').trim();
    const lastName = field(body, 'last_name').trim();
    const userName = field(body, 'user_name').trim();
    const email = field(body, 'email').trim();
    const password = field(body, 'password');
    if (!firstName || !lastName || !userName || !email || !password.trim()) {
      throw new AccountsError(400, MESSAGES.allFieldsRequired);
    }
    if (!isEmail(email)) throw new AccountsError(400, MESSAGES.invalidEmail);
    if (!USER_NAME.test(userName)) throw new AccountsError(400, MESSAGES.invalidUserName);
    if (firstName.length > NAME_MAX_LENGTH || lastName.length > NAME_MAX_LENGTH) {
      throw new AccountsError(400, MESSAGES.nameTooLong);
    }
    assertPassword(password);
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

  async requestEmailVerification(caller: UserRecord, body: unknown): Promise<{ message: string }> {
    assertSelf(caller, body);
    if (caller.emailConfirmed) throw new AccountsError(400, MESSAGES.emailAlreadyVerified);
    await this.deps.codeMail.send(caller, 'email_verify');
    return { message: 'Check your email for the code.' };
  }

  async confirmEmail(caller: UserRecord, body: unknown): Promise<MessageWithUser> {
    assertSelf(caller, body);
    if (caller.emailConfirmed) throw new AccountsError(400, MESSAGES.emailAlreadyVerified);
    await this.spendCode(caller, 'email_verify', body);
    await this.deps.users.setEmailConfirmed(caller.id, true);
    return { message: 'Email verified', user: await this.view(caller.id) };
  }

  async setupTwoFactor(caller: UserRecord, body: unknown): Promise<{ message: string }> {
    assertSelf(caller, body);
    if (caller.twoFactorEnabled) throw new AccountsError(400, MESSAGES.twoFactorAlreadyEnabled);
    await this.deps.codeMail.send(caller, '2fa_setup');
    return { message: 'Check your email for the 2FA code.' };
  }

  /**
   * `/2fa/email/verify`: signed in with a set-up code waiting, it turns 2FA on; otherwise it
   * completes a pending sign-in exactly like `/login/finish`.
   */
  async verifyTwoFactor(caller: UserRecord | undefined, body: unknown) {
    const userId = field(body, 'user_id');
    const settingUp =
      caller && (!userId || userId === caller.id) && (await this.deps.codes.pending(caller.id, '2fa_setup'));
    if (!caller || !settingUp) return this.deps.signin.loginFinish(body);
    await this.spendCode(caller, '2fa_setup', body);
    await this.deps.users.setTwoFactorEnabled(caller.id, true);
    return { message: '2FA enabled', user: await this.view(caller.id) };
  }

  async disableTwoFactor(caller: UserRecord, body: unknown): Promise<MessageWithUser> {
    const password = field(body, 'password');
    if (!password) throw new AccountsError(400, MESSAGES.passwordRequired);
    if (!caller.twoFactorEnabled) throw new AccountsError(400, MESSAGES.twoFactorNotEnabled);
    if (!caller.passwordHash || !(await this.deps.hasher.verify(caller.passwordHash, password))) {
      throw new AccountsError(400, MESSAGES.wrongPassword);
    }
    await this.deps.users.setTwoFactorEnabled(caller.id, false);
    return { message: '2FA disabled', user: await this.view(caller.id) };
  }

  /** The same answer whether or not the address has an account; the work happens afterwards. */
  async requestPasswordReset(body: unknown): Promise<{ message: string }> {
    const email = field(body, 'email').trim();
    if (!email) throw new AccountsError(400, MESSAGES.emailRequired);
    void this.deps.users
      .findByEmail(email)
      .then((user) => user && this.deps.codeMail.sendInBackground(user, 'password_reset'))
      .catch((error) => this.deps.log.error({ err: error }, 'password reset request failed'));
    return { message: 'If an account exists for this email, a reset code has been sent' };
  }

  async confirmPasswordReset(body: unknown): Promise<{ message: string }> {
    const { users, hasher, sessions, lockout, codes } = this.deps;
    const email = field(body, 'email').trim();
    const code = field(body, 'code').trim();
    const newPassword = field(body, 'new_password');
    if (!email || !code || !newPassword) throw new AccountsError(400, MESSAGES.allFieldsRequired);
    assertPassword(newPassword);
    const user = await users.findByEmail(email);
    if (!user) {
      await lockout.recordFailure(normaliseEmail(email)).catch(ignoreLockout);
      throw new AccountsError(400, MESSAGES.invalidCode);
    }
    await this.spendCode(user, 'password_reset', body);
    await users.setPasswordHash(user.id, await hasher.hash(newPassword));
    await users.setEmailConfirmed(user.id, true);
    await sessions.revokeAllForUser(user.id);
    await codes.cancelAll(user.id);
    await lockout.reset(user.email);
    return { message: 'Password reset successful' };
  }

  async changePassword(caller: UserRecord, body: unknown): Promise<PasswordChangeResponse> {
    const { users, hasher, sessions } = this.deps;
    const current = field(body, 'current_password');
    const next = field(body, 'new_password');
    if (!current || !next) throw new AccountsError(400, MESSAGES.allPasswordFieldsRequired);
    if (!caller.passwordHash || !(await hasher.verify(caller.passwordHash, current))) {
      throw new AccountsError(400, MESSAGES.wrongPassword);
    }
    if (current === next) throw new AccountsError(400, MESSAGES.samePassword);
    assertPassword(next);
    await users.setPasswordHash(caller.id, await hasher.hash(next));
    await sessions.revokeAllForUser(caller.id);
    // Every other session ends; this one continues with a fresh pair.
    return { message: 'Password updated', ...(await sessions.issue(caller)) };
  }

  /** Spends a code of the caller; wrong tries count towards the sign-in lockout. */
  private async spendCode(user: UserRecord, purpose: CodePurpose, body: unknown): Promise<void> {
    const result = await this.deps.codes.check(user.id, purpose, field(body, 'code'));
    if (result === 'ok') return;
    if (result !== 'none') await this.deps.lockout.recordFailure(user.email).catch(ignoreLockout);
    throw codeError(result);
  }

  private async assertFree(email: string, userName: string): Promise<void> {
    if (await this.deps.users.findByEmail(email)) throw new AccountsError(409, MESSAGES.emailTaken);
    if (await this.deps.users.findByUserName(userName)) throw new AccountsError(409, MESSAGES.userNameTaken);
  }

  private async view(id: string): Promise<User> {
    const user = await this.deps.users.findById(id);
    if (!user) throw new AccountsError(401, 'Authentication required');
    return toUserView(user);
  }
}

function assertPassword(password: string): void {
  const problem = passwordProblem(password);
  if (problem) throw new AccountsError(400, problem);
}

/** Calls on the caller's own account only: a different `user_id` is refused. */
function assertSelf(caller: UserRecord, body: unknown): void {
  const userId = field(body, 'user_id');
  if (userId && userId !== caller.id) throw new AccountsError(403, MESSAGES.forbidden);
}

/** Where a code error is the answer, the lockout that a wrong code may start is not. */
function ignoreLockout(error: unknown): void {
  if (error instanceof AccountsError && error.statusCode === 423) return;
  throw error;
}

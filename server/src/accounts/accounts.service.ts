import type { MessageWithUser, PasswordChangeResponse, User } from '@hearth/contracts';
import type { Logger } from 'pino';
import { HttpError } from '../http/errors.js';
import type { AddressBudget } from '../http/rate-limit.js';
import { nowIso } from '../storage/columns.js';
import { normaliseEmail, toUserView, type UserRecord, type UsersRepository } from '../users/index.js';
import { MESSAGES } from './accounts.errors.js';
import type {
  DisableTwoFactorInput,
  OwnAccountInput,
  OwnCodeInput,
  PasswordChangeInput,
  ReauthInput,
  ResetConfirmInput,
  ResetRequestInput,
  SignupInput,
} from './accounts.schemas.js';
import type { CodePurpose } from './accounts.tables.js';
import { type CodeMail, providersDisconnectedNotice, SIGNUP_ATTEMPT_NOTICE } from './code-mail.js';
import type { OneTimeCodes } from './codes.js';
import type { LoginLockout } from './lockout.js';
import type { IdentitiesRepository } from './oidc/identities.repository.js';
import { providerName } from './oidc/provider-name.js';
import type { PasswordHasher } from './password-hasher.js';
import { passwordProblem } from './password-rules.js';
import type { RefreshSessions } from './refresh-sessions.js';
import type { ClientInfo } from './session-tokens.js';
import { codeError, type SignInService } from './sign-in.service.js';

/**
 * A sign-up sent again this soon after its account was made, with the same address, name and
 * password, is the same sign-up: a proxy retrying a POST an instance carried out before it died.
 */
export const SIGNUP_REPLAY_MS = 60_000;

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
  sessions: Pick<RefreshSessions, 'issue' | 'revokeAllForUser' | 'markAuthenticated'>;
  hasher: Pick<PasswordHasher, 'hash' | 'verify' | 'verifyDummy'>;
  codes: Pick<OneTimeCodes, 'check' | 'pending' | 'cancelAll'>;
  codeMail: Pick<CodeMail, 'send' | 'sendInBackground' | 'notify'>;
  lockout: Pick<LoginLockout, 'reserve' | 'recordFailure' | 'reset'>;
  signIn: Pick<SignInService, 'loginFinish'>;
  /** Sign-ups per client address (SIGNUP_RATE_LIMIT); none: not limited. */
  signups?: Pick<AddressBudget, 'spend'>;
  /** Identity providers linked to accounts (a password reset disconnects them). */
  identities?: Pick<IdentitiesRepository, 'unlinkAll'>;
  /** Revokes the account's API tokens (a password reset does; docs/api.md#api-tokens). */
  revokeApiTokens?: (userId: string) => Promise<void>;
  log: Logger;
}

/** Sign-up and the account's own settings: e-mail verification, 2FA, passwords. */
export class AccountsService {
  constructor(private readonly deps: AccountsDeps) {}

  /**
   * Sign-up. An address that already has an account gets the same 201 as a new one (so sign-up
   * can't be used to test addresses: issue 11 item 7, which overrides the 409 of
   * docs/api.md#accounts), and its owner is mailed instead. A taken user name is still a 409,
   * unless the sign-up is a replay of the one that took it (SIGNUP_REPLAY_MS).
   *
   * Signing in with the address and the password just chosen still tells a free address from a
   * taken one, so every sign-up that answers 201 costs one of the client address's hourly budget
   * (issue 32 item 13); refusals (password rules, a taken user name) cost nothing.
   */
  async signup(input: SignupInput, client: ClientInfo = {}): Promise<User> {
    const { users, hasher, codeMail } = this.deps;
    const { email, user_name: userName, first_name: firstName, last_name: lastName, password } = input;
    await assertPassword(password);
    const named = await users.findByUserName(userName);
    if (named) return this.signupNameTaken(named, input);
    if (this.deps.signups && client.ip) await this.deps.signups.spend(client.ip);

    // Hashed either way, so the answer takes as long for a taken address as for a free one.
    const passwordHash = await hasher.hash(password);
    const existing = await users.findByEmail(email);
    if (existing) return this.signupTaken(existing, input);
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
      // Lost a race for the same address or name.
      const taken = await users.findByEmail(email);
      if (taken) return this.signupTaken(taken, input);
      const named = await users.findByUserName(userName);
      if (named) return this.signupNameTaken(named, input);
      throw error;
    }
    codeMail.sendInBackground(user, 'email_verify');
    return toUserView(user);
  }

  /**
   * 409, or the account's own answer again for a replayed sign-up; its verification code is sent if
   * the first attempt died before it could (a code sent within 30 s is not sent twice). One password
   * verification either way, so the answer's timing does not tell whose address the name has.
   */
  private async signupNameTaken(named: UserRecord, input: SignupInput): Promise<User> {
    const { hasher, codeMail } = this.deps;
    const hash =
      named.email === normaliseEmail(input.email) &&
      Date.now() - Date.parse(named.createdAt) <= SIGNUP_REPLAY_MS
        ? named.passwordHash
        : null;
    const replay = hash
      ? await hasher.verify(hash, input.password)
      : await hasher.verifyDummy(input.password);
    if (!replay) throw new HttpError(409, MESSAGES.userNameTaken);
    if (!named.emailConfirmed) codeMail.sendInBackground(named, 'email_verify');
    return toUserView(named);
  }

  /** The answer a new account would get, for an address that has one; its owner is told. */
  private signupTaken(owner: UserRecord, input: SignupInput): User {
    this.deps.codeMail.notify(owner.email, SIGNUP_ATTEMPT_NOTICE);
    const now = nowIso();
    return toUserView({
      id: crypto.randomUUID(),
      email: normaliseEmail(input.email),
      userName: input.user_name,
      firstName: input.first_name,
      lastName: input.last_name,
      passwordHash: null,
      role: 'user',
      emailConfirmed: false,
      twoFactorEnabled: false,
      lockoutEnabled: false,
      lockoutReason: null,
      lockoutUntil: null,
      profilePicture: null,
      tokensValidAfter: null,
      createdAt: now,
      updatedAt: now,
    });
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
  async verifyTwoFactor(caller: UserRecord | undefined, input: OwnCodeInput, client: ClientInfo = {}) {
    const settingUp =
      caller &&
      (!input.user_id || input.user_id === caller.id) &&
      (await this.deps.codes.pending(caller.id, '2fa_setup'));
    if (!caller || !settingUp) return this.deps.signIn.loginFinish(input, client);
    await this.spendCode(caller, '2fa_setup', input.code);
    await this.deps.users.setTwoFactorEnabled(caller.id, true);
    return { message: '2FA enabled', user: await this.view(caller.id) };
  }

  async disableTwoFactor(caller: UserRecord, { password }: DisableTwoFactorInput): Promise<MessageWithUser> {
    if (!caller.twoFactorEnabled) throw new HttpError(400, MESSAGES.twoFactorNotEnabled);
    await this.checkCurrentPassword(caller, password);
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

  /**
   * One answer for every wrong code, whether or not the address has an account and whether or not
   * the code was burned (issue 11 item 6), and reset-code failures never lock sign-in: the code
   * itself burns after 5 wrong tries, and its owner can ask for a new one.
   */
  async confirmPasswordReset(
    input: Omit<ResetConfirmInput, 'keep_providers'> & Partial<Pick<ResetConfirmInput, 'keep_providers'>>,
  ): Promise<{ message: string }> {
    const { users, hasher, sessions, lockout, codes } = this.deps;
    const { email, code, new_password } = input;
    await assertPassword(new_password);
    const user = await users.findByEmail(email);
    const result = user ? await codes.check(user.id, 'password_reset', code) : 'none';
    if (!user || result !== 'ok') throw new HttpError(400, MESSAGES.invalidCode);
    await users.setPasswordHash(user.id, await hasher.hash(new_password));
    await users.setEmailConfirmed(user.id, true);
    await sessions.revokeAllForUser(user.id);
    await this.deps.revokeApiTokens?.(user.id);
    await codes.cancelAll(user.id);
    await lockout.reset(user.email);
    if (!input.keep_providers) await this.disconnectProviders(user);
    return { message: 'Password reset successful' };
  }

  /**
   * A reset is how someone who lost control of the account takes it back: an identity provider
   * linked meanwhile would outlive it, so the reset disconnects them unless asked to keep them
   * (issue 32 item 12), and tells the owner which.
   */
  private async disconnectProviders(user: UserRecord): Promise<void> {
    const removed = (await this.deps.identities?.unlinkAll(user.id)) ?? [];
    if (removed.length > 0) {
      this.deps.codeMail.notify(user.email, providersDisconnectedNotice(removed.map(providerName)));
    }
  }

  /**
   * POST /reauth: the password confirmed again, for the calls that need a recent sign-in
   * (connecting an identity provider). Checked like the current password everywhere (lockout,
   * the shared per-user limit); the session counts as freshly signed in from now.
   */
  async reauthenticate(
    caller: UserRecord,
    sessionId: string | undefined,
    { password }: ReauthInput,
  ): Promise<{ message: string }> {
    await this.checkCurrentPassword(caller, password);
    if (sessionId) await this.deps.sessions.markAuthenticated(sessionId);
    return { message: 'Password confirmed' };
  }

  async changePassword(
    caller: UserRecord,
    input: PasswordChangeInput,
    client: ClientInfo = {},
  ): Promise<PasswordChangeResponse> {
    const { users, hasher, sessions } = this.deps;
    const { current_password: current, new_password: next } = input;
    await this.checkCurrentPassword(caller, current);
    if (current === next) throw new HttpError(400, MESSAGES.samePassword);
    await assertPassword(next);
    await users.setPasswordHash(caller.id, await hasher.hash(next));
    await sessions.revokeAllForUser(caller.id);
    // Every other session ends; this one continues with a fresh pair.
    return { message: 'Password updated', ...(await sessions.issue(caller, { client })) };
  }

  /**
   * The current password, as sign-in checks it: the attempt is counted in the caller's lockout
   * before hashing (a stolen access token is no password-guessing tool), a success clears it.
   */
  private async checkCurrentPassword(caller: UserRecord, password: string): Promise<void> {
    const attempt = await this.deps.lockout.reserve(caller.email);
    if (!caller.passwordHash || !(await this.deps.hasher.verify(caller.passwordHash, password))) {
      await attempt.failed();
      throw new HttpError(400, MESSAGES.wrongPassword);
    }
    await attempt.succeeded();
  }

  /** Spends a code of the caller; wrong tries count towards the sign-in lockout. */
  private async spendCode(user: UserRecord, purpose: CodePurpose, code: string): Promise<void> {
    const result = await this.deps.codes.check(user.id, purpose, code);
    if (result === 'ok') return;
    if (result !== 'none') await this.deps.lockout.recordFailure(user.email).catch(ignoreLockout);
    throw codeError(result);
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

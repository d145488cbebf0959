import type { Logger } from 'pino';
import type { AccountsDeps } from '../src/accounts/accounts.service.js';
import type { CodePurpose } from '../src/accounts/accounts.tables.js';
import type { CodeCheck } from '../src/accounts/codes.js';
import { loginLockedError } from '../src/accounts/lockout.js';
import type { SignInDeps } from '../src/accounts/sign-in.service.js';
import { HttpError } from '../src/http/errors.js';
import { createLogger } from '../src/logging/logger.js';
import { type NewUser, normaliseEmail, type UserRecord } from '../src/users/index.js';
import { userRecord } from './users.js';

// In-memory stand-ins for what the sign-in and accounts services depend on, so their rules are
// tested without a database, argon2 or SMTP (the HTTP tests cover those together).

export class FakeUsers {
  readonly byId = new Map<string, UserRecord>();

  add(fields: Partial<UserRecord> & { email: string }): UserRecord {
    const id = fields.id ?? crypto.randomUUID();
    const user = userRecord({
      id,
      userName: fields.email.split('@')[0] ?? 'someone',
      firstName: 'Ada',
      lastName: 'Lovelace',
      emailConfirmed: false,
      ...fields,
      email: normaliseEmail(fields.email),
    });
    this.byId.set(id, user);
    return user;
  }

  async create(user: NewUser): Promise<UserRecord> {
    const role = user.role === 'admin-if-first' ? (this.byId.size === 0 ? 'admin' : 'user') : user.role;
    const now = new Date().toISOString();
    return this.add({
      ...user,
      role,
      emailConfirmed: user.emailConfirmed ?? false,
      createdAt: now,
      updatedAt: now,
    });
  }
  async findById(id: string) {
    return this.byId.get(id);
  }
  async findByEmail(email: string) {
    return [...this.byId.values()].find((user) => user.email === normaliseEmail(email));
  }
  async findByUserName(userName: string) {
    return [...this.byId.values()].find((user) => user.userName.toLowerCase() === userName.toLowerCase());
  }
  async setEmailConfirmed(id: string, emailConfirmed: boolean) {
    this.patch(id, { emailConfirmed });
  }
  async setTwoFactorEnabled(id: string, twoFactorEnabled: boolean) {
    this.patch(id, { twoFactorEnabled });
  }
  async setPasswordHash(id: string, passwordHash: string) {
    this.patch(id, { passwordHash });
  }
  private patch(id: string, fields: Partial<UserRecord>) {
    const user = this.byId.get(id);
    if (user) this.byId.set(id, { ...user, ...fields });
  }
}

/** "Hashes" are the password with a prefix: enough to tell right from wrong. */
export class FakeHasher {
  /** Every password verified, against a real hash or the dummy one. */
  verified: string[] = [];
  async hash(password: string) {
    return `hash:${password}`;
  }
  async verify(hash: string, password: string) {
    this.verified.push(password);
    return hash === `hash:${password}`;
  }
  async verifyDummy(password: string): Promise<false> {
    this.verified.push(password);
    return false;
  }
}

export class FakeSessions {
  issued: string[] = [];
  revokedUsers: string[] = [];
  revokedTokens: string[] = [];
  async issue(user: UserRecord) {
    this.issued.push(user.id);
    const n = this.issued.length;
    return { access_token: `access-${n}`, refresh_token: `refresh-${n}` };
  }
  async rotate(token: string) {
    if (!token.startsWith('refresh-')) throw new HttpError(401, 'Invalid or expired refresh token');
    return {
      user: undefined as unknown as UserRecord,
      pair: { access_token: 'access-r', refresh_token: 'refresh-r' },
    };
  }
  async revokeFamilyOf(token: string) {
    this.revokedTokens.push(token);
  }
  async revokeAllForUser(userId: string) {
    this.revokedUsers.push(userId);
  }
  readonly authenticated: string[] = [];
  async markAuthenticated(sessionId: string) {
    this.authenticated.push(sessionId);
  }
}

/** Codes that are whatever the test says they are. */
export class FakeCodes {
  pendingFor = new Set<string>();
  next: CodeCheck = 'ok';
  checked: { userId: string; purpose: CodePurpose; code: string }[] = [];
  cancelled: string[] = [];
  async pending(userId: string, purpose: CodePurpose) {
    return this.pendingFor.has(`${userId}:${purpose}`);
  }
  async check(userId: string, purpose: CodePurpose, code: string) {
    this.checked.push({ userId, purpose, code });
    return this.next;
  }
  async cancelAll(userId: string) {
    this.cancelled.push(userId);
  }
}

export class FakeCodeMail {
  sent: { to: string; purpose: CodePurpose }[] = [];
  failWith: Error | undefined;
  async send(user: UserRecord, purpose: CodePurpose) {
    if (this.failWith) throw this.failWith;
    this.sent.push({ to: user.email, purpose });
  }
  sendInBackground(user: UserRecord, purpose: CodePurpose) {
    this.sent.push({ to: user.email, purpose });
  }
  notices: { to: string; subject: string }[] = [];
  notify(to: string, notice: { subject: string }) {
    this.notices.push({ to, subject: notice.subject });
  }
}

/** Five failures lock, like LoginLockout; `broken` makes the state unreadable. */
export class FakeLockout {
  failures = new Map<string, number>();
  broken = false;
  async assertOpen(email: string) {
    if (this.broken) throw new Error('database unavailable');
    if ((this.failures.get(normaliseEmail(email)) ?? 0) >= 5) throw loginLockedError(Date.now() + 60_000);
  }
  async reserve(email: string) {
    await this.assertOpen(email);
    return { failed: () => this.recordFailure(email), succeeded: () => this.reset(email) };
  }
  async recordFailure(email: string) {
    const key = normaliseEmail(email);
    const count = (this.failures.get(key) ?? 0) + 1;
    this.failures.set(key, count);
    if (count >= 5) throw loginLockedError(Date.now() + 60_000);
  }
  async reset(email: string) {
    this.failures.delete(normaliseEmail(email));
  }
}

/** A fresh set of fakes. */
export function accountsFakes() {
  return {
    users: new FakeUsers(),
    sessions: new FakeSessions(),
    hasher: new FakeHasher(),
    codes: new FakeCodes(),
    codeMail: new FakeCodeMail(),
    lockout: new FakeLockout(),
    log: createLogger('silent') as Logger,
  } satisfies Omit<AccountsDeps, 'signIn'> & SignInDeps;
}

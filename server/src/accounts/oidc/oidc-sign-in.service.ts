import type { Logger } from 'pino';
import type { UserRecord, UsersRepository } from '../../users/index.js';
import type { IdentitiesRepository } from './identities.repository.js';
import type { OidcProfile } from './oidc-client.js';
import { alternativeUserName, baseUserName } from './user-name.js';

/** The `error` codes of docs/strings.md#identity-provider-errors that the callback redirects with. */
export type OidcErrorCode =
  | 'oauth_cancelled'
  | 'oauth_failed'
  | 'oauth_exchange_failed'
  | 'email_conflict'
  | 'account_exists'
  | 'identity_in_use'
  | 'token_failed'
  | 'user_creation_failed'
  | 'link_failed';

export class OidcSignInError extends Error {
  constructor(
    readonly code: OidcErrorCode,
    message: string,
  ) {
    super(message);
  }
}

const MAX_NAME = 64;
const USER_NAME_TRIES = 8;

/**
 * Finds the Hearth account for a person the provider signed in: the account already linked to
 * their subject, else a new account. An existing account with their e-mail is never linked
 * silently (that would skip its password and its 2FA): its owner signs in with the password and
 * connects the provider from Settings (`link`), and the sign-in answers `account_exists`.
 */
export class OidcSignIn {
  constructor(
    private readonly provider: string,
    private readonly users: UsersRepository,
    private readonly identities: IdentitiesRepository,
    private readonly log: Logger,
  ) {}

  async resolveUser(profile: OidcProfile): Promise<UserRecord> {
    const linkedId = await this.identities.userIdForSubject(this.provider, profile.subject);
    if (linkedId) {
      const user = await this.users.findById(linkedId);
      if (user) return user;
    }
    // Without an address the provider vouches for, we can neither find nor safely create an account.
    if (!profile.email || !profile.emailVerified) {
      throw new OidcSignInError('oauth_failed', 'the provider did not give a verified e-mail address');
    }

    const existing = await this.users.findByEmail(profile.email);
    if (existing) {
      const otherSubject = await this.identities.subjectForUser(this.provider, existing.id);
      if (otherSubject && otherSubject !== profile.subject) {
        throw new OidcSignInError(
          'email_conflict',
          'the e-mail belongs to an account linked to another subject',
        );
      }
      throw new OidcSignInError(
        'account_exists',
        'an account has this e-mail; its owner must sign in and connect the provider from Settings',
      );
    }

    let created: UserRecord;
    try {
      created = await this.createUser(profile, profile.email);
    } catch (error) {
      throw new OidcSignInError(
        'user_creation_failed',
        `creating the account failed: ${(error as Error).message}`,
      );
    }
    try {
      await this.identities.link(this.provider, profile.subject, created.id, profile.email);
    } catch (error) {
      throw new OidcSignInError('link_failed', `linking failed: ${(error as Error).message}`);
    }
    this.log.info(
      { userId: created.id, provider: this.provider },
      'account created through identity provider',
    );
    return created;
  }

  /** Settings → Connect: links the provider account to the signed-in user who started it. */
  async link(userId: string, profile: OidcProfile): Promise<UserRecord> {
    const user = await this.users.findById(userId);
    if (!user) throw new OidcSignInError('link_failed', 'the user who started the link is gone');
    const linkedId = await this.identities.userIdForSubject(this.provider, profile.subject);
    if (linkedId === user.id) return user;
    if (linkedId)
      throw new OidcSignInError('identity_in_use', 'the provider account is linked to another user');
    const current = await this.identities.subjectForUser(this.provider, user.id);
    if (current)
      throw new OidcSignInError('email_conflict', 'the user already has another account of this provider');
    try {
      await this.identities.link(this.provider, profile.subject, user.id, profile.email ?? null);
    } catch (error) {
      throw new OidcSignInError('link_failed', `linking failed: ${(error as Error).message}`);
    }
    this.log.info({ userId: user.id, provider: this.provider }, 'identity provider account connected');
    return user;
  }

  private async createUser(profile: OidcProfile, email: string): Promise<UserRecord> {
    const [first, ...rest] = (profile.name ?? '').split(/\s+/).filter(Boolean);
    const base = baseUserName(profile.preferredUsername, email);
    const firstName = (profile.givenName ?? first ?? base).slice(0, MAX_NAME);
    const lastName = (profile.familyName ?? rest.join(' ')).slice(0, MAX_NAME);
    // The first account ever becomes admin, like the first sign-up.
    const role = 'admin-if-first';

    let userName = base;
    for (let attempt = 0; attempt < USER_NAME_TRIES; attempt++) {
      if (!(await this.users.findByUserName(userName))) {
        try {
          return await this.users.create({
            email,
            userName,
            firstName,
            lastName,
            passwordHash: null,
            role,
            emailConfirmed: true,
          });
        } catch (error) {
          // Someone took the name (or the e-mail) at the same moment; a taken e-mail fails below.
          if (await this.users.findByEmail(email)) throw error;
        }
      }
      userName = alternativeUserName(base);
    }
    throw new Error('no free user name');
  }
}

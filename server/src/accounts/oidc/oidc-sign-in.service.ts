import type { Logger } from 'pino';
import type { UserRecord, UsersRepository } from '../../users/index.js';
import type { SessionTokens } from '../session-tokens.js';
import type { IdentitiesRepository } from './identities.repository.js';
import type { OidcProfile } from './oidc-client.js';
import { alternativeUserName, baseUserName } from './user-name.js';

/** The `error` codes of docs/strings.md#identity-provider-errors that the callback redirects with. */
export type OidcErrorCode =
  | 'oauth_cancelled'
  | 'oauth_failed'
  | 'oauth_exchange_failed'
  | 'email_conflict'
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
 * their subject, else the account with their verified e-mail (linked now), else a new account.
 */
export class OidcSignIn {
  constructor(
    private readonly provider: string,
    private readonly users: UsersRepository,
    private readonly identities: IdentitiesRepository,
    private readonly sessions: SessionTokens,
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
      try {
        if (!existing.emailConfirmed) {
          await this.identities.claimUnconfirmedAccount(existing.id);
          await this.sessions.revokeAllForUser(existing.id);
        }
        await this.identities.link(this.provider, profile.subject, existing.id, profile.email);
      } catch (error) {
        throw new OidcSignInError('link_failed', `linking failed: ${(error as Error).message}`);
      }
      this.log.info({ userId: existing.id, provider: this.provider }, 'identity provider account linked');
      return (await this.users.findById(existing.id)) ?? existing;
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

import type { Kysely } from 'kysely';
import type { Database } from '../storage/schema.js';
import type { UserRecord } from '../users/users.repository.js';
import type { AccessTokens } from './access-token.js';
import type { IssueOptions, SessionTokens, TokenPair } from './session-tokens.js';

/**
 * Refresh-token sessions stored in the database (hashed, rotated, families revoked on reuse).
 * Placeholder: the accounts domain implements storage, rotation and revocation here.
 */
export class RefreshSessions implements SessionTokens {
  constructor(
    readonly db: Kysely<Database>,
    private readonly accessTokens: AccessTokens,
  ) {}

  async issue(user: UserRecord, options: IssueOptions = {}): Promise<TokenPair> {
    void this.db;
    return {
      access_token: await this.accessTokens.sign(
        { userId: user.id, role: user.role },
        options.accessTtlSeconds,
      ),
      refresh_token: '',
    };
  }

  async revokeAllForUser(_userId: string): Promise<void> {}
}

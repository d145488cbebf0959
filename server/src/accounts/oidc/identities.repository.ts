import type { Kysely } from 'kysely';
import { nowIso } from '../../storage/columns.js';
import type { Database } from '../../storage/schema.js';

export interface PendingLogin {
  state: string;
  provider: string;
  nonce: string;
  codeVerifier: string;
  /** Settings → Connect: the signed-in user the identity is linked to. */
  linkUserId?: string | null;
  /** The web app's one-time nonce, echoed back with the tokens. */
  browserNonce?: string | null;
}

export interface LinkedIdentity {
  provider: string;
  email: string | null;
  created_at: string;
}

/** Provider links and pending sign-ins. */
export class IdentitiesRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async userIdForSubject(provider: string, subject: string): Promise<string | undefined> {
    const row = await this.db
      .selectFrom('user_identities')
      .select('user_id')
      .where('provider', '=', provider)
      .where('subject', '=', subject)
      .executeTakeFirst();
    return row?.user_id;
  }

  async subjectForUser(provider: string, userId: string): Promise<string | undefined> {
    const row = await this.db
      .selectFrom('user_identities')
      .select('subject')
      .where('provider', '=', provider)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return row?.subject;
  }

  async link(provider: string, subject: string, userId: string, email: string | null): Promise<void> {
    await this.db
      .insertInto('user_identities')
      .values({ provider, subject, user_id: userId, email, created_at: nowIso() })
      .execute();
  }

  /** The provider accounts linked to a user (Settings → Sign-in methods). */
  listForUser(userId: string): Promise<LinkedIdentity[]> {
    return this.db
      .selectFrom('user_identities')
      .select(['provider', 'email', 'created_at'])
      .where('user_id', '=', userId)
      .orderBy('created_at')
      .execute();
  }

  /** Unlinks; false when the user had no such identity. */
  async unlink(provider: string, userId: string): Promise<boolean> {
    const result = await this.db
      .deleteFrom('user_identities')
      .where('provider', '=', provider)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /** Unlinks every provider of the user (a password reset); answers the providers it unlinked. */
  async unlinkAll(userId: string): Promise<string[]> {
    const rows = await this.db
      .deleteFrom('user_identities')
      .where('user_id', '=', userId)
      .returning('provider')
      .execute();
    return rows.map((row) => row.provider);
  }

  async savePending(login: PendingLogin, ttlSeconds: number): Promise<void> {
    const now = Date.now();
    await this.db.deleteFrom('oidc_login_states').where('expires_at', '<', nowIso(now)).execute();
    await this.db
      .insertInto('oidc_login_states')
      .values({
        state: login.state,
        provider: login.provider,
        nonce: login.nonce,
        code_verifier: login.codeVerifier,
        link_user_id: login.linkUserId ?? null,
        browser_nonce: login.browserNonce ?? null,
        created_at: nowIso(now),
        expires_at: nowIso(now + ttlSeconds * 1000),
      })
      .execute();
  }

  /** Takes the pending sign-in for `state` out of the store: it can be used once, and only in time. */
  async takePending(state: string): Promise<PendingLogin | undefined> {
    const row = await this.db
      .selectFrom('oidc_login_states')
      .selectAll()
      .where('state', '=', state)
      .executeTakeFirst();
    if (!row) return undefined;
    const { numDeletedRows } = await this.db
      .deleteFrom('oidc_login_states')
      .where('state', '=', state)
      .executeTakeFirst();
    // Another request consumed it between our read and delete: it is spent.
    if (Number(numDeletedRows) !== 1 || row.expires_at < nowIso()) return undefined;
    return {
      state: row.state,
      provider: row.provider,
      nonce: row.nonce,
      codeVerifier: row.code_verifier,
      linkUserId: row.link_user_id,
      browserNonce: row.browser_nonce,
    };
  }
}

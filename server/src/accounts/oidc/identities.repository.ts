import type { Kysely } from 'kysely';
import { fromBool, nowIso } from '../../storage/columns.js';
import type { Database } from '../../storage/schema.js';

export interface PendingLogin {
  state: string;
  provider: string;
  nonce: string;
  codeVerifier: string;
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

  /**
   * The provider proved the e-mail; an account that never confirmed it may have been registered
   * by someone else to wait for its owner. The owner takes it over: the address counts as
   * confirmed and the unproven password stops working (the owner can set one by reset).
   */
  async claimUnconfirmedAccount(userId: string): Promise<void> {
    await this.db
      .updateTable('users')
      .set({ email_confirmed: fromBool(true), password_hash: null, updated_at: nowIso() })
      .where('id', '=', userId)
      .where('email_confirmed', '=', fromBool(false))
      .execute();
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
    return { state: row.state, provider: row.provider, nonce: row.nonce, codeVerifier: row.code_verifier };
  }
}

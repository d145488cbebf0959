import type { Kysely } from 'kysely';
import type { Database } from '../storage/schema.js';

export class LockoutRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async lockedUntil(emailKey: string): Promise<string | undefined> {
    const row = await this.db
      .selectFrom('login_lockouts')
      .select('locked_until')
      .where('email_key', '=', emailKey)
      .executeTakeFirst();
    return row?.locked_until;
  }

  async addFailure(emailKey: string, at: string): Promise<void> {
    await this.db
      .insertInto('login_failures')
      .values({ id: crypto.randomUUID(), email_key: emailKey, failed_at: at })
      .execute();
  }

  async countFailuresSince(emailKey: string, since: string): Promise<number> {
    const { n } = await this.db
      .selectFrom('login_failures')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('email_key', '=', emailKey)
      .where('failed_at', '>', since)
      .executeTakeFirstOrThrow();
    return Number(n);
  }

  async lock(emailKey: string, until: string): Promise<void> {
    await this.db
      .insertInto('login_lockouts')
      .values({ email_key: emailKey, locked_until: until })
      .onConflict((oc) => oc.column('email_key').doUpdateSet({ locked_until: until }))
      .execute();
    await this.db.deleteFrom('login_failures').where('email_key', '=', emailKey).execute();
  }

  async clear(emailKey: string): Promise<void> {
    await this.db.deleteFrom('login_failures').where('email_key', '=', emailKey).execute();
    await this.db.deleteFrom('login_lockouts').where('email_key', '=', emailKey).execute();
  }
}

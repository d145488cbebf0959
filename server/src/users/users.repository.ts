import { type Kysely, PostgresAdapter, type Selectable, sql } from 'kysely';
import { fromBool, nowIso, toBool } from '../storage/columns.js';
import type { Database, UsersTable } from '../storage/schema.js';

export type Role = UsersTable['role'];

export interface UserRecord {
  id: string;
  email: string;
  userName: string;
  firstName: string;
  lastName: string;
  passwordHash: string | null;
  role: Role;
  emailConfirmed: boolean;
  twoFactorEnabled: boolean;
  lockoutEnabled: boolean;
  lockoutReason: string | null;
  lockoutUntil: string | null;
  profilePicture: string | null;
  /** Access tokens issued before this time are refused. */
  tokensValidAfter: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface NewUser {
  id?: string;
  email: string;
  userName: string;
  firstName: string;
  lastName: string;
  passwordHash: string | null;
  /** 'admin-if-first': admin when no account exists yet, else user — decided atomically. */
  role: Role | 'admin-if-first';
  emailConfirmed?: boolean;
}

export const normaliseEmail = (email: string): string => email.trim().toLowerCase();

export function toRecord(row: Selectable<UsersTable>): UserRecord {
  return {
    id: row.id,
    email: row.email,
    userName: row.user_name,
    firstName: row.first_name,
    lastName: row.last_name,
    passwordHash: row.password_hash,
    role: row.role,
    emailConfirmed: toBool(row.email_confirmed),
    twoFactorEnabled: toBool(row.two_factor_enabled),
    lockoutEnabled: toBool(row.lockout_enabled),
    lockoutReason: row.lockout_reason,
    lockoutUntil: row.lockout_until,
    profilePicture: row.profile_picture,
    tokensValidAfter: row.tokens_valid_after,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export class UsersRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async create(user: NewUser): Promise<UserRecord> {
    if (user.role !== 'admin-if-first') return this.insert(this.db, { ...user, role: user.role });
    return this.db.transaction().execute(async (trx) => {
      // Two sign-ups on an empty PostgreSQL database must not both become admin: this lock
      // conflicts with itself, so first-account decisions run one at a time. (SQLite runs one
      // write transaction at a time anyway.)
      if (trx.getExecutor().adapter instanceof PostgresAdapter) {
        await sql`lock table users in share row exclusive mode`.execute(trx);
      }
      const existing = await trx.selectFrom('users').select('id').limit(1).executeTakeFirst();
      return this.insert(trx, { ...user, role: existing ? 'user' : 'admin' });
    });
  }

  private async insert(db: Kysely<Database>, user: NewUser & { role: Role }): Promise<UserRecord> {
    const now = nowIso();
    const row = {
      id: user.id ?? crypto.randomUUID(),
      email: normaliseEmail(user.email),
      user_name: user.userName,
      user_name_key: user.userName.toLowerCase(),
      first_name: user.firstName,
      last_name: user.lastName,
      password_hash: user.passwordHash,
      role: user.role,
      email_confirmed: fromBool(user.emailConfirmed ?? false),
      created_at: now,
      updated_at: now,
    };
    await db.insertInto('users').values(row).execute();
    const created = await db.selectFrom('users').selectAll().where('id', '=', row.id).executeTakeFirst();
    if (!created) throw new Error('user vanished after insert');
    return toRecord(created);
  }

  async findById(id: string): Promise<UserRecord | undefined> {
    const row = await this.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? toRecord(row) : undefined;
  }

  async findByEmail(email: string): Promise<UserRecord | undefined> {
    const row = await this.db
      .selectFrom('users')
      .selectAll()
      .where('email', '=', normaliseEmail(email))
      .executeTakeFirst();
    return row ? toRecord(row) : undefined;
  }

  async findByUserName(userName: string): Promise<UserRecord | undefined> {
    const row = await this.db
      .selectFrom('users')
      .selectAll()
      .where('user_name_key', '=', userName.toLowerCase())
      .executeTakeFirst();
    return row ? toRecord(row) : undefined;
  }

  async count(): Promise<number> {
    const { n } = await this.db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(n);
  }

  async setPasswordHash(id: string, passwordHash: string): Promise<void> {
    await this.db
      .updateTable('users')
      .set({ password_hash: passwordHash, updated_at: nowIso() })
      .where('id', '=', id)
      .execute();
  }

  async setEmailConfirmed(id: string, confirmed: boolean): Promise<void> {
    await this.db
      .updateTable('users')
      .set({ email_confirmed: fromBool(confirmed), updated_at: nowIso() })
      .where('id', '=', id)
      .execute();
  }

  async setTwoFactorEnabled(id: string, enabled: boolean): Promise<void> {
    await this.db
      .updateTable('users')
      .set({ two_factor_enabled: fromBool(enabled), updated_at: nowIso() })
      .where('id', '=', id)
      .execute();
  }
}

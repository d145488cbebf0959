import type { Kysely, Selectable } from 'kysely';
import type { Database, UsersTable } from '../storage/schema.js';
import { fromBool, nowIso, toBool } from '../storage/time.js';

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
  role: Role;
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
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export class UsersRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async create(user: NewUser): Promise<UserRecord> {
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
    await this.db.insertInto('users').values(row).execute();
    const created = await this.findById(row.id);
    if (!created) throw new Error('user vanished after insert');
    return created;
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

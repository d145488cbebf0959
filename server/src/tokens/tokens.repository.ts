import type { ApiTokenScope } from '@hearth/contracts';
import type { Kysely } from 'kysely';
import type { Database } from '../storage/schema.js';
import type { ApiTokensTable } from './tokens.tables.js';

/** A token as stored, with its owner's name. */
export interface ApiTokenRecord {
  id: string;
  ownerId: string;
  ownerLabel: string;
  name: string;
  scope: ApiTokenScope;
  rooms: string[];
  devices: string[];
  createdAt: string;
  expiresAt: string | null;
  lastUsedAt: string | null;
  lastUsedIp: string | null;
  revokedAt: string | null;
}

export type NewApiToken = Omit<ApiTokenRecord, 'ownerLabel' | 'lastUsedAt' | 'lastUsedIp' | 'revokedAt'> & {
  secretHash: string;
};

const stringList = (text: string): string[] => {
  const value: unknown = JSON.parse(text);
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
};

type Row = Omit<ApiTokensTable, 'secret_hash'> & { first_name: string; last_name: string; email: string };

const toRecord = (row: Row): ApiTokenRecord => ({
  id: row.id,
  ownerId: row.owner_id,
  ownerLabel: `${row.first_name} ${row.last_name}`.trim() || row.email,
  name: row.name,
  scope: row.scope === 'control' ? 'control' : 'read',
  rooms: stringList(row.rooms),
  devices: stringList(row.devices),
  createdAt: row.created_at,
  expiresAt: row.expires_at,
  lastUsedAt: row.last_used_at,
  lastUsedIp: row.last_used_ip,
  revokedAt: row.revoked_at,
});

/** The api_tokens table (docs/api.md#api-tokens). Revoked tokens stay, so their look-up costs the same. */
export class ApiTokensRepository {
  constructor(private readonly db: Kysely<Database>) {}

  private select() {
    return this.db
      .selectFrom('api_tokens')
      .innerJoin('users', 'users.id', 'api_tokens.owner_id')
      .select([
        'api_tokens.id',
        'api_tokens.owner_id',
        'api_tokens.name',
        'api_tokens.scope',
        'api_tokens.rooms',
        'api_tokens.devices',
        'api_tokens.created_at',
        'api_tokens.expires_at',
        'api_tokens.last_used_at',
        'api_tokens.last_used_ip',
        'api_tokens.revoked_at',
        'users.first_name',
        'users.last_name',
        'users.email',
      ]);
  }

  async insert(token: NewApiToken): Promise<void> {
    await this.db
      .insertInto('api_tokens')
      .values({
        id: token.id,
        secret_hash: token.secretHash,
        owner_id: token.ownerId,
        name: token.name,
        scope: token.scope,
        rooms: JSON.stringify(token.rooms),
        devices: JSON.stringify(token.devices),
        created_at: token.createdAt,
        expires_at: token.expiresAt,
      })
      .execute();
  }

  /** The token of a hash, revoked or not: one indexed read, whatever it finds. */
  async byHash(secretHash: string): Promise<ApiTokenRecord | undefined> {
    const row = await this.select().where('api_tokens.secret_hash', '=', secretHash).executeTakeFirst();
    return row && toRecord(row);
  }

  async byId(id: string): Promise<ApiTokenRecord | undefined> {
    const row = await this.select().where('api_tokens.id', '=', id).executeTakeFirst();
    return row && toRecord(row);
  }

  /** Tokens not revoked, newest first: one owner's, or everyone's. */
  async list(ownerId?: string): Promise<ApiTokenRecord[]> {
    let query = this.select().where('api_tokens.revoked_at', 'is', null);
    if (ownerId !== undefined) query = query.where('api_tokens.owner_id', '=', ownerId);
    const rows = await query.orderBy('api_tokens.created_at', 'desc').orderBy('api_tokens.id').execute();
    return rows.map(toRecord);
  }

  /** Revokes one token; whether it was live. */
  async revoke(id: string, at: string): Promise<boolean> {
    const result = await this.db
      .updateTable('api_tokens')
      .set({ revoked_at: at })
      .where('id', '=', id)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** Revokes every live token of an owner; answers their ids. */
  async revokeAllOf(ownerId: string, at: string): Promise<string[]> {
    const rows = await this.db
      .updateTable('api_tokens')
      .set({ revoked_at: at })
      .where('owner_id', '=', ownerId)
      .where('revoked_at', 'is', null)
      .returning('id')
      .execute();
    return rows.map((row) => row.id);
  }

  /** Of these ids, the rooms that exist. */
  async existingRooms(ids: readonly string[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const rows = await this.db.selectFrom('rooms').select('id').where('id', 'in', ids).execute();
    return new Set(rows.map((row) => row.id));
  }

  async touch(id: string, at: string, ip: string): Promise<void> {
    await this.db
      .updateTable('api_tokens')
      .set({ last_used_at: at, last_used_ip: ip.slice(0, 100) })
      .where('id', '=', id)
      .execute();
  }
}

import type { PassLevel, PassWindow, Role } from '@hearth/contracts';
import type { Kysely } from 'kysely';
import { fromBool, toBool } from '../storage/columns.js';
import type { Database } from '../storage/schema.js';
import { storedSchedule } from './passes.schemas.js';
import type { PassesTable } from './passes.tables.js';

/** What a pass grants, and when: as created, and as stored. */
interface PassTerms {
  label: string | null;
  level: PassLevel;
  rooms: string[];
  devices: string[];
  startsAt: string | null;
  endsAt: string | null;
  schedule: PassWindow[] | null;
}

/** A pass as stored, with the account that made it. */
export interface PassRecord extends PassTerms {
  id: string;
  paused: boolean;
  revokedAt: string | null;
  createdAt: string;
  creator: { id: string; label: string; role: Role };
}

export interface NewPass extends PassTerms {
  id: string;
  tokenHash: string;
  createdBy: string;
  createdAt: string;
}

const stringList = (text: string): string[] => {
  const value: unknown = JSON.parse(text);
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
};

/** The passes table (docs/passes.md#storage). */
export class PassesRepository {
  constructor(private readonly db: Kysely<Database>) {}

  private select() {
    return this.db
      .selectFrom('passes')
      .innerJoin('users', 'users.id', 'passes.created_by')
      .select([
        'passes.id',
        'passes.label',
        'passes.level',
        'passes.rooms',
        'passes.devices',
        'passes.starts_at',
        'passes.ends_at',
        'passes.schedule',
        'passes.paused',
        'passes.revoked_at',
        'passes.created_at',
        'users.id as creator_id',
        'users.first_name',
        'users.last_name',
        'users.email',
        'users.role',
      ]);
  }

  private static toRecord(
    row: Omit<PassesTable, 'token_hash' | 'created_by' | 'updated_at'> & {
      creator_id: string;
      first_name: string;
      last_name: string;
      email: string;
      role: Role;
    },
  ): PassRecord {
    const name = `${row.first_name} ${row.last_name}`.trim();
    const schedule = row.schedule === null ? null : storedSchedule.safeParse(JSON.parse(row.schedule));
    return {
      id: row.id,
      label: row.label,
      level: row.level === 'control' ? 'control' : 'view',
      rooms: stringList(row.rooms),
      devices: stringList(row.devices),
      startsAt: row.starts_at,
      endsAt: row.ends_at,
      // A schedule that no longer reads as one allows nothing (an empty list of windows).
      schedule: schedule === null ? null : schedule.success ? schedule.data : [],
      paused: toBool(row.paused),
      revokedAt: row.revoked_at,
      createdAt: row.created_at,
      creator: { id: row.creator_id, label: name || row.email, role: row.role },
    };
  }

  async insert(pass: NewPass): Promise<void> {
    await this.db
      .insertInto('passes')
      .values({
        id: pass.id,
        token_hash: pass.tokenHash,
        label: pass.label,
        level: pass.level,
        rooms: JSON.stringify(pass.rooms),
        devices: JSON.stringify(pass.devices),
        starts_at: pass.startsAt,
        ends_at: pass.endsAt,
        schedule: pass.schedule === null ? null : JSON.stringify(pass.schedule),
        paused: 0,
        revoked_at: null,
        created_by: pass.createdBy,
        created_at: pass.createdAt,
        updated_at: pass.createdAt,
      })
      .execute();
  }

  /** Passes not revoked, newest first. */
  async list(): Promise<PassRecord[]> {
    const rows = await this.select()
      .where('passes.revoked_at', 'is', null)
      .orderBy('passes.created_at', 'desc')
      .orderBy('passes.id', 'desc')
      .execute();
    return rows.map(PassesRepository.toRecord);
  }

  /** A pass by id (revoked ones too). */
  async byId(id: string): Promise<PassRecord | undefined> {
    const row = await this.select().where('passes.id', '=', id).executeTakeFirst();
    return row && PassesRepository.toRecord(row);
  }

  /** The pass whose token hashes to this (revoked ones too: the caller decides, on the same path). */
  async byTokenHash(hash: string): Promise<PassRecord | undefined> {
    const row = await this.select().where('passes.token_hash', '=', hash).executeTakeFirst();
    return row && PassesRepository.toRecord(row);
  }

  /** These passes as they are now (revoked ones too; deleted ones are left out). */
  async byIds(ids: readonly string[]): Promise<PassRecord[]> {
    if (ids.length === 0) return [];
    const rows = await this.select().where('passes.id', 'in', ids).execute();
    return rows.map(PassesRepository.toRecord);
  }

  async setPaused(id: string, paused: boolean, now: string): Promise<boolean> {
    const result = await this.db
      .updateTable('passes')
      .set({ paused: fromBool(paused), updated_at: now })
      .where('id', '=', id)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async revoke(id: string, now: string): Promise<boolean> {
    const result = await this.db
      .updateTable('passes')
      .set({ revoked_at: now, updated_at: now })
      .where('id', '=', id)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** Which of these ids are rooms. */
  async existingRooms(ids: readonly string[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const rows = await this.db.selectFrom('rooms').select('id').where('id', 'in', ids).execute();
    return new Set(rows.map((row) => row.id));
  }
}

import {
  DEFAULT_NOTIFICATION_PREFERENCES,
  type NotificationKind,
  type NotificationPreferences,
  type NotificationSeverity,
  type NotificationStatus,
} from '@hearth/contracts';
import type { Kysely, Selectable } from 'kysely';
import { fromBool, nowIso, toBool } from '../storage/columns.js';
import type { Database } from '../storage/schema.js';
import type { Role } from '../users/index.js';
import type { Notice } from './notice.js';
import type { NoticesTable, NotificationPreferencesTable } from './notifications.tables.js';

/** A person as deliveries and the audience need them. */
export interface PersonRow {
  id: string;
  role: Role;
  email: string;
  name: string;
  /** Locked by an administrator: told nothing. */
  locked: boolean;
}

/** One person's notification with its notice. */
export interface NotificationRow {
  id: string;
  user_id: string;
  read: boolean;
  created_at: string;
  notice: Notice;
}

/** A notification due for delivery, with what the sender needs. */
export interface DueRow {
  id: string;
  user_id: string;
  due_at: string;
  sent_version: number;
  sent_at: string | null;
  notice: Notice;
}

export interface PageFilter {
  status: NotificationStatus;
  kind?: NotificationKind | undefined;
  room_id?: string | undefined;
  /** Keyset: after this (created_at, id), newest first. */
  after?: { created_at: string; id: string } | undefined;
  limit: number;
}

const NOTICE_COLUMNS = [
  'notices.kind',
  'notices.severity',
  'notices.title',
  'notices.body',
  'notices.device_id',
  'notices.room_id',
  'notices.audience',
  'notices.window_minutes',
  'notices.version',
  'notices.created_at as notice_created_at',
  'notices.updated_at as notice_updated_at',
  'notices.resolved_at',
  'notices.acknowledged_at',
  'notices.acknowledged_by',
  'notices.acknowledged_name',
] as const;

type NoticeColumns = Omit<Selectable<NoticesTable>, 'id' | 'created_at' | 'updated_at'> & {
  notice_id: string;
  notice_created_at: string;
  notice_updated_at: string;
};

function toNotice(row: NoticeColumns): Notice {
  return {
    id: row.notice_id,
    kind: row.kind as NotificationKind,
    severity: row.severity as NotificationSeverity,
    title: row.title,
    body: row.body,
    device_id: row.device_id,
    room_id: row.room_id,
    audience: row.audience === 'admins' ? 'admins' : 'device',
    window_minutes: row.window_minutes,
    version: row.version,
    created_at: row.notice_created_at,
    updated_at: row.notice_updated_at,
    resolved_at: row.resolved_at,
    acknowledged_at: row.acknowledged_at,
    acknowledged_by:
      row.acknowledged_at !== null && row.acknowledged_by !== null
        ? { id: row.acknowledged_by, name: row.acknowledged_name ?? '' }
        : null,
  };
}

function toPreferences(row: Selectable<NotificationPreferencesTable> | undefined): NotificationPreferences {
  if (!row) return { ...DEFAULT_NOTIFICATION_PREFERENCES };
  return {
    push: toBool(row.push),
    email: toBool(row.email),
    email_digest: toBool(row.email_digest),
    webhook_url: row.webhook_url,
    quiet_hours:
      row.quiet_start !== null && row.quiet_end !== null
        ? { start: row.quiet_start, end: row.quiet_end }
        : null,
  };
}

/** Notices, notifications and preferences (docs/alerts.md#storage). */
export class NotificationsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** Every account, as the audience and deliveries see it. */
  async people(): Promise<PersonRow[]> {
    const rows = await this.db
      .selectFrom('users')
      .select(['id', 'role', 'email', 'first_name', 'last_name', 'lockout_enabled', 'lockout_reason'])
      .execute();
    return rows.map((row) => ({
      id: row.id,
      role: row.role,
      email: row.email,
      name: `${row.first_name} ${row.last_name}`.trim() || row.email,
      locked: toBool(row.lockout_enabled) && row.lockout_reason === 'admin_lock',
    }));
  }

  async person(id: string): Promise<PersonRow | undefined> {
    return (await this.people()).find((person) => person.id === id);
  }

  /** Stores the notice if it is new or newer than the stored one; answers whether it did. */
  async storeNotice(notice: Notice): Promise<boolean> {
    const values = {
      kind: notice.kind,
      severity: notice.severity,
      title: notice.title,
      body: notice.body,
      device_id: notice.device_id,
      room_id: notice.room_id,
      audience: notice.audience,
      window_minutes: notice.window_minutes,
      version: notice.version,
      updated_at: notice.updated_at,
      resolved_at: notice.resolved_at,
    };
    const inserted = await this.db
      .insertInto('notices')
      .values({
        id: notice.id,
        ...values,
        created_at: notice.created_at,
        acknowledged_at: null,
        acknowledged_by: null,
        acknowledged_name: null,
      })
      .onConflict((conflict) => conflict.column('id').doNothing())
      .executeTakeFirst();
    if (Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0) return true;
    const updated = await this.db
      .updateTable('notices')
      .set(values)
      .where('id', '=', notice.id)
      .where('version', '<', notice.version)
      .executeTakeFirst();
    return Number(updated.numUpdatedRows) > 0;
  }

  async notice(id: string): Promise<Notice | undefined> {
    const row = await this.db
      .selectFrom('notices')
      .select([...NOTICE_COLUMNS, 'notices.id as notice_id'])
      .where('notices.id', '=', id)
      .executeTakeFirst();
    return row && toNotice(row);
  }

  /** The first acknowledgement of a notice; answers whether this was it. */
  async acknowledge(noticeId: string, by: { id: string; name: string }, at: string): Promise<boolean> {
    const result = await this.db
      .updateTable('notices')
      .set({ acknowledged_at: at, acknowledged_by: by.id, acknowledged_name: by.name, updated_at: at })
      .where('id', '=', noticeId)
      .where('acknowledged_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** Gives these people a notification of the notice (those who have one keep it). */
  async addAudience(noticeId: string, userIds: readonly string[], at: string): Promise<void> {
    if (userIds.length === 0) return;
    await this.db
      .insertInto('notifications')
      .values(
        userIds.map((user_id) => ({ id: crypto.randomUUID(), notice_id: noticeId, user_id, created_at: at })),
      )
      .onConflict((conflict) => conflict.columns(['notice_id', 'user_id']).doNothing())
      .execute();
  }

  /** News about the notice: unread again, and due now. */
  async markNews(noticeId: string, at: string): Promise<void> {
    await this.db
      .updateTable('notifications')
      .set({ read: 0, due_at: at })
      .where('notice_id', '=', noticeId)
      .execute();
  }

  /** Who has a notification of the notice. */
  async audienceOf(noticeId: string): Promise<string[]> {
    const rows = await this.db
      .selectFrom('notifications')
      .select('user_id')
      .where('notice_id', '=', noticeId)
      .execute();
    return rows.map((row) => row.user_id);
  }

  private selectWithNotice() {
    return this.db
      .selectFrom('notifications')
      .innerJoin('notices', 'notices.id', 'notifications.notice_id')
      .select([
        'notifications.id',
        'notifications.user_id',
        'notifications.read',
        'notifications.created_at',
        'notices.id as notice_id',
        ...NOTICE_COLUMNS,
      ]);
  }

  private static toRow(
    row: NoticeColumns & { id: string; user_id: string; read: number; created_at: string },
  ) {
    return {
      id: row.id,
      user_id: row.user_id,
      read: toBool(row.read),
      created_at: row.created_at,
      notice: toNotice(row),
    };
  }

  /** One page of a person's notifications, newest first. */
  async page(userId: string, filter: PageFilter): Promise<NotificationRow[]> {
    let query = this.selectWithNotice().where('notifications.user_id', '=', userId);
    if (filter.status === 'open') query = query.where('notices.resolved_at', 'is', null);
    if (filter.status === 'resolved') query = query.where('notices.resolved_at', 'is not', null);
    if (filter.kind) query = query.where('notices.kind', '=', filter.kind);
    if (filter.room_id) query = query.where('notices.room_id', '=', filter.room_id);
    const after = filter.after;
    if (after) {
      query = query.where((eb) =>
        eb.or([
          eb('notifications.created_at', '<', after.created_at),
          eb.and([
            eb('notifications.created_at', '=', after.created_at),
            eb('notifications.id', '<', after.id),
          ]),
        ]),
      );
    }
    const rows = await query
      .orderBy('notifications.created_at', 'desc')
      .orderBy('notifications.id', 'desc')
      .limit(filter.limit)
      .execute();
    return rows.map(NotificationsRepository.toRow);
  }

  async find(userId: string, id: string): Promise<NotificationRow | undefined> {
    const row = await this.selectWithNotice()
      .where('notifications.user_id', '=', userId)
      .where('notifications.id', '=', id)
      .executeTakeFirst();
    return row && NotificationsRepository.toRow(row);
  }

  /** A person's unread notifications and their open critical ones not acknowledged (the bell, the banner). */
  async attention(userId: string): Promise<NotificationRow[]> {
    const rows = await this.selectWithNotice()
      .where('notifications.user_id', '=', userId)
      .where((eb) =>
        eb.or([
          eb('notifications.read', '=', 0),
          eb.and([
            eb('notices.severity', '=', 'critical'),
            eb('notices.resolved_at', 'is', null),
            eb('notices.acknowledged_at', 'is', null),
          ]),
        ]),
      )
      .orderBy('notifications.created_at', 'desc')
      .orderBy('notifications.id', 'desc')
      .limit(5000)
      .execute();
    return rows.map(NotificationsRepository.toRow);
  }

  async markRead(userId: string, ids: readonly string[]): Promise<void> {
    if (ids.length === 0) return;
    await this.db
      .updateTable('notifications')
      .set({ read: 1 })
      .where('user_id', '=', userId)
      .where('id', 'in', ids)
      .execute();
  }

  // ── delivery ─────────────────────────────────────────────────────────────────────────────────

  /** Notifications due by `now` that no instance holds. */
  async due(now: string, limit: number): Promise<{ id: string; due_at: string }[]> {
    const rows = await this.db
      .selectFrom('notifications')
      .select(['id', 'due_at'])
      .where('due_at', '<=', now)
      .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<', now)]))
      .orderBy('due_at')
      .limit(limit)
      .execute();
    return rows.flatMap((row) => (row.due_at === null ? [] : [{ id: row.id, due_at: row.due_at }]));
  }

  /** Takes a due notification for this instance until `until`; answers whether it got it. */
  async claim(id: string, dueAt: string, now: string, until: string): Promise<boolean> {
    const result = await this.db
      .updateTable('notifications')
      .set({ claimed_until: until })
      .where('id', '=', id)
      .where('due_at', '=', dueAt)
      .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<', now)]))
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async claimed(id: string): Promise<DueRow | undefined> {
    const row = await this.db
      .selectFrom('notifications')
      .innerJoin('notices', 'notices.id', 'notifications.notice_id')
      .select([
        'notifications.id',
        'notifications.user_id',
        'notifications.due_at',
        'notifications.sent_version',
        'notifications.sent_at',
        'notices.id as notice_id',
        ...NOTICE_COLUMNS,
      ])
      .where('notifications.id', '=', id)
      .executeTakeFirst();
    if (!row || row.due_at === null) return undefined;
    return {
      id: row.id,
      user_id: row.user_id,
      due_at: row.due_at,
      sent_version: row.sent_version,
      sent_at: row.sent_at,
      notice: toNotice(row),
    };
  }

  /**
   * Lets a claimed notification go: `sent` records what went out; `next` is when it is due again
   * (null: not), unless news arrived meanwhile (due_at changed), which stays due.
   */
  async release(
    id: string,
    dueAt: string,
    outcome: { sent?: { version: number; at: string; digest: boolean }; next: string | null },
  ): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      const { sent } = outcome;
      await trx
        .updateTable('notifications')
        .set({
          claimed_until: null,
          ...(sent
            ? { sent_version: sent.version, sent_at: sent.at, ...(sent.digest ? { digest_pending: 1 } : {}) }
            : {}),
        })
        .where('id', '=', id)
        .execute();
      await trx
        .updateTable('notifications')
        .set({ due_at: outcome.next })
        .where('id', '=', id)
        .where('due_at', '=', dueAt)
        .execute();
    });
  }

  /** Skips what is due without sending: nothing new for this person (the version is theirs now). */
  async skip(id: string, dueAt: string, version: number): Promise<void> {
    await this.release(id, dueAt, { next: null });
    await this.db
      .updateTable('notifications')
      .set({ sent_version: version })
      .where('id', '=', id)
      .where('sent_version', '<', version)
      .execute();
  }

  // ── e-mail digests ───────────────────────────────────────────────────────────────────────────

  /** People with notifications waiting for a digest, and the oldest one's sending time. */
  async digestsWaiting(): Promise<{ user_id: string; since: string | null; last: string | null }[]> {
    const rows = await this.db
      .selectFrom('notifications')
      .leftJoin('notification_preferences', 'notification_preferences.user_id', 'notifications.user_id')
      .select(['notifications.user_id', 'notification_preferences.digest_sent_at'])
      .select((eb) => eb.fn.min('notifications.sent_at').as('since'))
      .where('notifications.digest_pending', '=', 1)
      .groupBy(['notifications.user_id', 'notification_preferences.digest_sent_at'])
      .execute();
    return rows.map((row) => ({
      user_id: row.user_id,
      since: (row.since as string | null) ?? null,
      last: row.digest_sent_at ?? null,
    }));
  }

  /** Takes a person's digest for this instance; answers whether it got it. */
  async claimDigest(userId: string, last: string | null, at: string): Promise<boolean> {
    await this.ensurePreferences(userId, at);
    const result = await this.db
      .updateTable('notification_preferences')
      .set({ digest_sent_at: at })
      .where('user_id', '=', userId)
      .where((eb) => (last === null ? eb('digest_sent_at', 'is', null) : eb('digest_sent_at', '=', last)))
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** What a person's digest holds, and empties it. */
  async takeDigest(userId: string): Promise<Notice[]> {
    const rows = await this.db
      .selectFrom('notifications')
      .innerJoin('notices', 'notices.id', 'notifications.notice_id')
      .select(['notifications.id', 'notices.id as notice_id', ...NOTICE_COLUMNS])
      .where('notifications.user_id', '=', userId)
      .where('notifications.digest_pending', '=', 1)
      .orderBy('notices.updated_at')
      .execute();
    if (rows.length > 0) {
      await this.db
        .updateTable('notifications')
        .set({ digest_pending: 0 })
        .where(
          'id',
          'in',
          rows.map((row) => row.id),
        )
        .execute();
    }
    return rows.map(toNotice);
  }

  // ── preferences ──────────────────────────────────────────────────────────────────────────────

  async preferences(userId: string): Promise<NotificationPreferences> {
    const row = await this.db
      .selectFrom('notification_preferences')
      .selectAll()
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return toPreferences(row);
  }

  /** Everyone's preferences who has stored some (the others have the defaults). */
  async allPreferences(userIds: readonly string[]): Promise<Map<string, NotificationPreferences>> {
    if (userIds.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('notification_preferences')
      .selectAll()
      .where('user_id', 'in', userIds)
      .execute();
    return new Map(rows.map((row) => [row.user_id, toPreferences(row)]));
  }

  private async ensurePreferences(userId: string, at: string) {
    const defaults = DEFAULT_NOTIFICATION_PREFERENCES;
    await this.db
      .insertInto('notification_preferences')
      .values({
        user_id: userId,
        push: fromBool(defaults.push),
        email: fromBool(defaults.email),
        email_digest: fromBool(defaults.email_digest),
        webhook_url: defaults.webhook_url,
        quiet_start: null,
        quiet_end: null,
        digest_sent_at: null,
        updated_at: at,
      })
      .onConflict((conflict) => conflict.column('user_id').doNothing())
      .execute();
  }

  async setPreferences(userId: string, preferences: NotificationPreferences): Promise<void> {
    const at = nowIso();
    await this.ensurePreferences(userId, at);
    await this.db
      .updateTable('notification_preferences')
      .set({
        push: fromBool(preferences.push),
        email: fromBool(preferences.email),
        email_digest: fromBool(preferences.email_digest),
        webhook_url: preferences.webhook_url,
        quiet_start: preferences.quiet_hours?.start ?? null,
        quiet_end: preferences.quiet_hours?.end ?? null,
        updated_at: at,
      })
      .where('user_id', '=', userId)
      .execute();
  }
}

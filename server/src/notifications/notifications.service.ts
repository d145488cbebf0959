import {
  NOTIFICATION_PAGE_SIZE,
  type NotificationPage,
  type NotificationPreferences,
  type NotificationSummary,
  type NotificationView,
} from '@hearth/contracts';
import type { ReachSource } from '../devicehub/index.js';
import { HttpError } from '../http/errors.js';
import type { Clock } from '../shared/clock.js';
import { yieldToEventLoop } from '../storage/batches.js';
import { nowIso } from '../storage/columns.js';
import type { UserRecord } from '../users/index.js';
import type { AcknowledgeIncident, Notice } from './notice.js';
import { NOTIFICATIONS_ERRORS as E } from './notifications.errors.js';
import type { NotificationRow, NotificationsRepository, PersonRow } from './notifications.repository.js';
import type { NotificationsQuery } from './notifications.schemas.js';

export interface NotificationsServiceDeps {
  repository: NotificationsRepository;
  /** Who may view which device (docs/access.md#reach). */
  reach: ReachSource;
  clock: Clock;
  /** The incident's side of an acknowledgement (the alerts domain: its repeats stop). */
  acknowledgeIncident: AcknowledgeIncident;
  /** These people's notifications changed: their live views follow (here and on other instances). */
  changed(userIds: readonly string[]): void;
  /** Something became due: the sender should look soon. */
  due(): void;
}

type Caller = Pick<UserRecord, 'id' | 'role' | 'firstName' | 'lastName' | 'email'>;

const encodeCursor = (row: { created_at: string; id: string }) =>
  Buffer.from(`${row.created_at}|${row.id}`).toString('base64url');

function decodeCursor(cursor: string): { created_at: string; id: string } {
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  const [created_at, id, extra] = text.split('|');
  if (!created_at || !id || extra !== undefined || !/^\d{4}-\d{2}-\d{2}T/.test(created_at)) {
    throw new HttpError(400, E.cursor);
  }
  return { created_at, id };
}

export function toView(row: NotificationRow): NotificationView {
  const { notice } = row;
  return {
    id: row.id,
    incident_id: notice.id,
    kind: notice.kind,
    severity: notice.severity,
    title: notice.title,
    body: notice.body,
    device_id: notice.device_id,
    room_id: notice.room_id,
    created_at: notice.created_at,
    updated_at: notice.updated_at,
    resolved_at: notice.resolved_at,
    acknowledged_at: notice.acknowledged_at,
    acknowledged_by: notice.acknowledged_by,
    read: row.read,
  };
}

const isOpenCritical = (notice: Notice) =>
  notice.severity === 'critical' && notice.resolved_at === null && notice.acknowledged_at === null;

/**
 * The inbox (docs/alerts.md#api): each person's notifications of the incidents they may view,
 * read and acknowledged; and who is told of a notice in the first place.
 */
export class NotificationsService {
  constructor(private readonly deps: NotificationsServiceDeps) {}

  /** Whether `who` may see a notice now: admins-only ones for admins, device ones for its viewers. */
  private async sees(who: Pick<PersonRow, 'id' | 'role'>): Promise<(notice: Notice) => boolean> {
    const reach = await this.deps.reach.reachOf(who);
    return (notice) => {
      if (notice.audience === 'admins') return who.role === 'admin';
      if (notice.device_id === null || reach.everything) return true;
      return reach.levelOf(notice.device_id) !== 'none';
    };
  }

  /** The people a notice is for: its audience as the access rules say now, none locked out. */
  private async audience(notice: Notice): Promise<string[]> {
    const people = await this.deps.repository.people();
    const told: string[] = [];
    for (const person of people) {
      if (person.locked || (notice.people && !notice.people.includes(person.id))) continue;
      if ((await this.sees(person))(notice)) told.push(person.id);
    }
    return told;
  }

  /** docs/alerts.md#incidents: stores a notice and tells its audience (Notifier.publish). */
  async publish(notice: Notice, deliver: boolean): Promise<void> {
    const { repository } = this.deps;
    if (!(await repository.storeNotice(notice))) return;
    // Turns of the event loop between the steps (see storage/batches.ts): on SQLite the whole
    // publication would otherwise be one task, in front of the device stream's messages.
    await yieldToEventLoop();
    const at = nowIso(this.deps.clock.now());
    await repository.addAudience(notice.id, await this.audience(notice), at);
    await yieldToEventLoop();
    if (deliver) {
      await repository.markNews(notice.id, at);
      this.deps.due();
    }
    this.deps.changed(await repository.audienceOf(notice.id));
  }

  async list(caller: Caller, query: NotificationsQuery): Promise<NotificationPage> {
    const sees = await this.sees(caller);
    const after = query.cursor ? decodeCursor(query.cursor) : undefined;
    const rows = await this.deps.repository.page(caller.id, {
      status: query.status,
      kind: query.kind,
      room_id: query.room_id,
      after,
      limit: NOTIFICATION_PAGE_SIZE + 1,
    });
    const more = rows.length > NOTIFICATION_PAGE_SIZE;
    const page = rows.slice(0, NOTIFICATION_PAGE_SIZE);
    const last = page.at(-1);
    return {
      notifications: page.filter((row) => sees(row.notice)).map(toView),
      unread: (await this.summary(caller)).unread,
      next_cursor: more && last ? encodeCursor(last) : null,
    };
  }

  /** The bell's count and the banner's incidents (the live stream sends this). */
  async summary(who: Pick<PersonRow, 'id' | 'role'>): Promise<NotificationSummary> {
    const sees = await this.sees(who);
    const rows = (await this.deps.repository.attention(who.id)).filter((row) => sees(row.notice));
    return {
      unread: rows.filter((row) => !row.read).length,
      critical: rows.filter((row) => isOpenCritical(row.notice)).map(toView),
    };
  }

  /** The caller's notification, if it is theirs and they may still view what it is about. */
  private async own(caller: Caller, id: string): Promise<NotificationRow> {
    const row = await this.deps.repository.find(caller.id, id);
    if (!row || !(await this.sees(caller))(row.notice)) throw new HttpError(404, E.notFound);
    return row;
  }

  async markRead(caller: Caller, id: string): Promise<NotificationView> {
    const row = await this.own(caller, id);
    if (!row.read) {
      await this.deps.repository.markRead(caller.id, [id]);
      this.deps.changed([caller.id]);
    }
    return toView({ ...row, read: true });
  }

  async markAllRead(caller: Caller): Promise<{ unread: number }> {
    const sees = await this.sees(caller);
    const unread = (await this.deps.repository.attention(caller.id)).filter(
      (row) => !row.read && sees(row.notice),
    );
    await this.deps.repository.markRead(
      caller.id,
      unread.map((row) => row.id),
    );
    if (unread.length > 0) this.deps.changed([caller.id]);
    return { unread: 0 };
  }

  /**
   * docs/alerts.md#acknowledging: the incident is acknowledged for everyone told of it (a critical
   * one stops repeating) and read for the caller. Acknowledging it again changes nothing.
   */
  async acknowledge(caller: Caller, id: string): Promise<{ view: NotificationView; notice: Notice }> {
    const row = await this.own(caller, id);
    const { repository } = this.deps;
    if (row.notice.acknowledged_at === null) {
      const at = nowIso(this.deps.clock.now());
      const by = { id: caller.id, name: `${caller.firstName} ${caller.lastName}`.trim() || caller.email };
      await this.deps.acknowledgeIncident(row.notice.id, by, at);
      await repository.acknowledge(row.notice.id, by, at);
      await repository.markRead(caller.id, [id]);
      this.deps.changed(await repository.audienceOf(row.notice.id));
    } else if (!row.read) {
      await repository.markRead(caller.id, [id]);
      this.deps.changed([caller.id]);
    }
    const after = (await repository.find(caller.id, id)) ?? row;
    return { view: toView(after), notice: after.notice };
  }

  preferences(caller: Caller): Promise<NotificationPreferences> {
    return this.deps.repository.preferences(caller.id);
  }

  async setPreferences(
    caller: Caller,
    preferences: NotificationPreferences,
  ): Promise<NotificationPreferences> {
    await this.deps.repository.setPreferences(caller.id, preferences);
    return this.deps.repository.preferences(caller.id);
  }
}

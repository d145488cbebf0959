import type { Generated } from 'kysely';

/** Tables of the notifications domain, added by migration 0021 (docs/alerts.md#storage). */
export interface NoticesTable {
  /** The incident's id. */
  id: string;
  kind: string;
  severity: string;
  title: string;
  body: string;
  device_id: string | null;
  room_id: string | null;
  /** `device`: whoever may view the device; `admins`: admins only. */
  audience: string;
  /** At most one delivery per person and this many minutes (the first and critical repeats aside). */
  window_minutes: number;
  version: number;
  created_at: string;
  updated_at: string;
  resolved_at: string | null;
  acknowledged_at: string | null;
  acknowledged_by: string | null;
  acknowledged_name: string | null;
}

export interface NotificationsTable {
  id: string;
  notice_id: string;
  user_id: string;
  /** 0/1 */
  read: Generated<number>;
  created_at: string;
  /** The notice's version last delivered through the person's channels (0: none yet). */
  sent_version: Generated<number>;
  sent_at: string | null;
  /** When the next delivery is due (null: nothing to send). */
  due_at: string | null;
  /** An instance sending it holds it until then. */
  claimed_until: string | null;
  /** 0/1: waits for the person's next e-mail digest. */
  digest_pending: Generated<number>;
}

export interface NotificationPreferencesTable {
  user_id: string;
  push: number;
  email: number;
  email_digest: number;
  webhook_url: string | null;
  quiet_start: string | null;
  quiet_end: string | null;
  /** When the last digest went (one an hour at most). */
  digest_sent_at: string | null;
  updated_at: string;
}

export interface NotificationsTables {
  notices: NoticesTable;
  notifications: NotificationsTable;
  notification_preferences: NotificationPreferencesTable;
}

/**
 * Wire shapes of alerts, the notification inbox and Web Push (docs/alerts.md), shared by server and
 * web app.
 */

/**
 * The built-in rules: a device offline, a low battery, a safety sensor tripped, the hub away; and
 * what automations say (their `notify` action, the loop breaker: docs/automations.md#notify).
 */
export const NOTIFICATION_KINDS = ['offline', 'battery', 'safety', 'hub', 'automation'] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

export const NOTIFICATION_SEVERITIES = ['info', 'warning', 'critical'] as const;
export type NotificationSeverity = (typeof NOTIFICATION_SEVERITIES)[number];

/** `status` of GET /api/notifications. */
export const NOTIFICATION_STATUSES = ['open', 'resolved', 'all'] as const;
export type NotificationStatus = (typeof NOTIFICATION_STATUSES)[number];

/** Who acknowledged an incident: the person's id and name as they were then. */
export interface NotificationActor {
  id: string;
  name: string;
}

/** One person's notification of one incident (docs/alerts.md#api). */
export interface NotificationView {
  id: string;
  incident_id: string;
  kind: NotificationKind;
  severity: NotificationSeverity;
  title: string;
  body: string;
  device_id: string | null;
  room_id: string | null;
  /** ISO-8601: when the incident opened. */
  created_at: string;
  /** ISO-8601: when it last changed (opened, got worse, resolved, repeated, acknowledged). */
  updated_at: string;
  resolved_at: string | null;
  acknowledged_at: string | null;
  acknowledged_by: NotificationActor | null;
  read: boolean;
}

/** GET /api/notifications */
export interface NotificationPage {
  notifications: NotificationView[];
  /** The caller's unread notifications, all of them (not only this page's). */
  unread: number;
  next_cursor: string | null;
}

/** Notifications per page of GET /api/notifications. */
export const NOTIFICATION_PAGE_SIZE = 50;

/**
 * What the live stream (GET /api/notifications/stream, Server-Sent Events) sends the caller, at once
 * and whenever their notifications change: the bell's count and the banner's incidents (open,
 * critical, not acknowledged).
 */
export interface NotificationSummary {
  unread: number;
  critical: NotificationView[];
}

/** The event name of the stream's summaries. */
export const NOTIFICATION_STREAM_EVENT = 'notifications';

/** Quiet hours in HOUSEHOLD_TIME_ZONE: "HH:MM" each; start after end spans midnight. */
export interface QuietHours {
  start: string;
  end: string;
}

/** GET and PUT /api/notifications/preferences */
export interface NotificationPreferences {
  /** Web Push to the browsers this person subscribed. */
  push: boolean;
  /** E-mail: critical notifications at once. */
  email: boolean;
  /** E-mail: the others, collected in one message an hour. */
  email_digest: boolean;
  /** ntfy (or a compatible endpoint) gets a POST per notification; null: none. */
  webhook_url: string | null;
  quiet_hours: QuietHours | null;
}

export const DEFAULT_NOTIFICATION_PREFERENCES: NotificationPreferences = {
  push: true,
  email: true,
  email_digest: false,
  webhook_url: null,
  quiet_hours: null,
};

/** GET and PUT /api/alerts/settings: the household's rules (docs/alerts.md#rules). */
export interface AlertSettings {
  /** Minutes offline before a device alerts (0: at once); null: the rule is off. */
  offline_after_minutes: number | null;
  /** Battery percentage at or below which a device alerts (cleared at this + 5); null: off. */
  battery_below: number | null;
  safety: boolean;
  hub: boolean;
  /** Critical incidents are sent again this often until acknowledged. */
  repeat_critical_minutes: number;
}

export const DEFAULT_ALERT_SETTINGS: AlertSettings = {
  offline_after_minutes: 10,
  battery_below: 15,
  safety: true,
  hub: true,
  repeat_critical_minutes: 15,
};

/** A battery alert clears only this many points above `battery_below`. */
export const BATTERY_HYSTERESIS = 5;

/** PUT /api/alerts/devices/{id} and GET /api/alerts/devices */
export interface DeviceMute {
  device_id: string;
  muted: boolean;
}

/** GET /api/push/key */
export interface PushKey {
  public_key: string;
}

/** POST /api/push/subscriptions: the browser's PushSubscription as JSON. */
export interface PushSubscriptionBody {
  endpoint: string;
  expirationTime?: number | null;
  keys: { p256dh: string; auth: string };
}

/** What a push message carries to the service worker (its `data`, JSON). */
export interface PushMessage {
  title: string;
  body: string;
  /** Where a click on it goes: the device's page, or the inbox. */
  url: string;
  /** The incident: a newer message about it replaces the older one on the device. */
  tag: string;
  severity: NotificationSeverity;
  notification_id: string;
}

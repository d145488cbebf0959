import type { NotificationActor, NotificationKind, NotificationSeverity } from '@hearth/contracts';

/**
 * What an incident says, as the alerts domain hands it over (docs/alerts.md#incidents): one notice
 * per incident, its `version` counting the changes people are told of. Every person told of it gets
 * a notification of their own.
 */
export interface Notice {
  /** The incident's id. */
  id: string;
  kind: NotificationKind;
  severity: NotificationSeverity;
  title: string;
  body: string;
  device_id: string | null;
  room_id: string | null;
  /** `device`: whoever may view the device (docs/access.md); `admins`: admins only (the hub). */
  audience: 'device' | 'admins';
  /** Only these people of the audience (an automation's `notify` to chosen people); all when absent. */
  people?: readonly string[];
  /** At most one delivery per person per this many minutes (the first one aside). */
  window_minutes: number;
  version: number;
  created_at: string;
  updated_at: string;
  resolved_at: string | null;
  acknowledged_at: string | null;
  acknowledged_by: NotificationActor | null;
}

/** The incident's side of an acknowledgement: its repeats stop. Answers whether it was open to it. */
export type AcknowledgeIncident = (incidentId: string, by: NotificationActor, at: string) => Promise<void>;

/**
 * What the alerts domain uses: `publish` stores a notice (a newer version than the stored one) and
 * tells its audience. With `deliver`, each person's notification is unread again and due through
 * their channels; without, it only changes in place (a mute resolving it quietly).
 */
export interface Notifier {
  publish(notice: Notice, deliver: boolean): Promise<void>;
}

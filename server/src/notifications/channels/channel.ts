import type { NotificationPreferences, NotificationSeverity } from '@hearth/contracts';
import type { Notice } from '../notice.js';

/** Who a delivery goes to. */
export interface Person {
  id: string;
  email: string;
  name: string;
}

/** One notification on its way to one person (docs/alerts.md#channels). */
export interface Delivery {
  notification_id: string;
  person: Person;
  preferences: NotificationPreferences;
  notice: Notice;
  /** The incident is open and critical: through quiet hours, Urgency high, e-mail at once. */
  critical: boolean;
  severity: NotificationSeverity;
  /** Where the notification leads when clicked (absolute: the device's page or the inbox). */
  url: string;
}

/**
 * A way to reach a person: Web Push, e-mail, a webhook. A new one is one more file implementing
 * this, handed to the notifications module. Each channel bounds its own time and retries; a
 * channel that fails or hangs never holds up another.
 */
export interface Channel {
  readonly name: string;
  /** Whether this delivery goes through the channel (the person's preferences). */
  wants(delivery: Delivery): boolean;
  /** Sends it; rejects when it could not (logged by the caller). */
  send(delivery: Delivery): Promise<void>;
}

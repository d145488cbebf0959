import { NOTIFICATION_KINDS, NOTIFICATION_STATUSES } from '@hearth/contracts';

/** Every message the notification calls answer with (docs/alerts.md#api); asserted in tests. */
export const NOTIFICATIONS_ERRORS = {
  notFound: 'Notification not found',
  status: `status must be one of ${NOTIFICATION_STATUSES.join(', ')}`,
  kind: `kind must be one of ${NOTIFICATION_KINDS.join(', ')}`,
  cursor: 'cursor is not one this API gave',
  flag: (field: string) => `${field} must be true or false`,
  webhookUrl: 'webhook_url must be an http:// or https:// URL of at most 2000 characters, or null',
  quietHours: 'quiet_hours must be {start, end} with times HH:MM, or null',
} as const;

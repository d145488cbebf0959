// Notifications as other domains and app.ts see them (docs/alerts.md).
export type { Channel, Delivery, Person } from './channels/channel.js';
export type { AcknowledgeIncident, Notice, Notifier } from './notice.js';
export {
  type NotificationsModule,
  type NotificationsModuleDeps,
  notificationsModule,
} from './notifications.module.js';

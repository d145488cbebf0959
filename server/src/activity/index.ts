// The activity log as other domains and app.ts see it (docs/activity.md).
export type { DeviceEventListener, DeviceEvents } from './activity.devices.js';
export {
  type ActivityLog,
  type ActivityOrigin,
  type ActivityRecord,
  type ActorPerson,
  actAs,
  noActivity,
  originOf,
  resultOf,
  SYSTEM_ACTOR,
  tracked,
  trackRequests,
  userActor,
} from './activity.log.js';
export { type ActivityModule, type ActivityModuleDeps, activityModule } from './activity.module.js';
export type { ActivityScope, ActivityViewer } from './activity.service.js';

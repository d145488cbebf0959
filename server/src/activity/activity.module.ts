import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { Module } from '../lifecycle/module.js';
import type { Database } from '../storage/schema.js';
import { type DeviceEvents, deviceEventRecorder } from './activity.devices.js';
import type { ActivityLog } from './activity.log.js';
import { ActivityRepository } from './activity.repository.js';
import { ActivityRetention } from './activity.retention.js';
import { type ActivityGuard, registerActivityRoutes } from './activity.routes.js';
import {
  type ActivityScope,
  ActivityService,
  type ActivityViewer,
  defaultScope,
} from './activity.service.js';
import { ActivityWriter } from './activity.writer.js';

export interface ActivityModuleDeps {
  db: Kysely<Database>;
  log: Logger;
  /** Sets `request.caller` or refuses with 401 (the users domain's `guards.user`). */
  signedIn: ActivityGuard;
  /** ACTIVITY_RETENTION_DAYS */
  retentionDays: number;
  /**
   * What a viewer may read. Default: residents and admins everything, `user` their own entries;
   * access rules narrow it here (docs/activity.md#who-sees-what).
   */
  scope?: (viewer: ActivityViewer) => ActivityScope | Promise<ActivityScope>;
}

export interface ActivityModule extends Module {
  /** The log other domains record to (usable at once; written from start on). */
  log: ActivityLog & { flush(): Promise<void> };
  /** Records the device hub's events (joined, left, offline, back) until the module closes. */
  listenTo(devices: DeviceEvents): void;
}

/** The activity log: recording in batches, retention and the activity API (docs/activity.md). */
export function activityModule(deps: ActivityModuleDeps): ActivityModule {
  const log = deps.log.child({ domain: 'activity' });
  const repository = new ActivityRepository(deps.db);
  const writer = new ActivityWriter({ repository, log });
  const retention = new ActivityRetention({ repository, log, days: deps.retentionDays });
  const service = new ActivityService({ repository, writer, scope: deps.scope ?? defaultScope });
  const stops: (() => void)[] = [];

  return {
    name: 'activity',
    log: writer,
    listenTo(devices) {
      stops.push(devices.listen(deviceEventRecorder(writer, () => devices.writes())));
    },
    register: (app) => registerActivityRoutes(app, deps.signedIn, service),
    // /healthz names `activity` once the writer has not written for a minute.
    ready: () => writer.healthy,
    start() {
      retention.start();
    },
    async close() {
      for (const stop of stops) stop();
      await retention.stop();
      await writer.close();
    },
  };
}

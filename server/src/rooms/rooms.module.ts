import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import { type ActivityLog, noActivity } from '../activity/index.js';
import type { Bus } from '../bus/bus.js';
import { instanceChanges } from '../bus/instance-changes.js';
import { type DeviceDirectory, type Reach, type ReachSource, roleReach } from '../devicehub/index.js';
import type { Module } from '../lifecycle/module.js';
import type { Dialect } from '../storage/database.js';
import type { Database } from '../storage/schema.js';
import type { Guards, UserRecord } from '../users/index.js';
import { type RoomsChange, sharedChange } from './rooms.changes.js';
import { RoomsRepository } from './rooms.repository.js';
import { registerRoomsRoutes } from './rooms.routes.js';
import { type RoomRules, RoomsService } from './rooms.service.js';
import type { Sight } from './rooms.sight.js';

export interface RoomsModuleDeps {
  db: Kysely<Database>;
  dialect: Dialect;
  log: Logger;
  guards: Guards;
  /** The device hub: which devices exist, their room on the wire, and events to browsers. */
  devices: DeviceDirectory;
  bus: Bus;
  /** DEVICEHUB_TOPIC_PREFIX: instances sharing it tell each other their changes under it. */
  topicPrefix: string;
  /** Where room changes are recorded (docs/activity.md); none: not recorded. */
  activity?: ActivityLog;
  /** Every caller's reach (docs/access.md); none: the roles' defaults. */
  reach?: ReachSource;
  /** The access rules a deleted room leaves on its devices (docs/access.md#deleting-a-room); none: none kept. */
  rules?: RoomRules;
}

export interface RoomsModule extends Module {
  /** The rooms and floors an account with this reach sees (the activity log hides entries about the others). */
  sight(user: Pick<UserRecord, 'role'>, reach: Reach): Promise<Sight>;
}

/** Rooms, floors, device assignment and favourites (docs/rooms.md). */
export function roomsModule(deps: RoomsModuleDeps): RoomsModule {
  const log = deps.log.child({ domain: 'rooms' });
  // docs/rooms.md#several-instances: another instance's change reaches this one's pages too.
  const instances = instanceChanges({
    bus: deps.bus,
    topic: `${deps.topicPrefix}/instances/rooms`,
    log,
    schema: sharedChange,
    apply: (change) =>
      void service
        .applyShared(change)
        .catch((error) => log.error({ err: error }, "applying another instance's room change failed")),
    what: 'room change',
  });
  const service = new RoomsService({
    repository: new RoomsRepository(deps.db, deps.dialect),
    devices: deps.devices,
    share: (change: RoomsChange) => instances.share(change),
    ...(deps.rules ? { rules: deps.rules } : {}),
  });
  const reach = deps.reach ?? roleReach;

  return {
    name: 'rooms',
    register: (app) => registerRoomsRoutes(app, deps.guards, service, deps.activity ?? noActivity, reach),
    sight: (user, reach) => service.sight(user, reach),
    start: () => instances.start(),
    close: () => instances.close(),
  };
}

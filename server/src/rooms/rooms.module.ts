import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import { type ActivityLog, noActivity } from '../activity/index.js';
import type { Bus } from '../bus/bus.js';
import type { DeviceDirectory } from '../devicehub/index.js';
import type { Module } from '../lifecycle/module.js';
import type { Dialect } from '../storage/database.js';
import type { Database } from '../storage/schema.js';
import type { Guards } from '../users/index.js';
import { applyChange, type RoomsChange, sharedChange } from './rooms.changes.js';
import { RoomsRepository } from './rooms.repository.js';
import { registerRoomsRoutes } from './rooms.routes.js';
import { RoomsService } from './rooms.service.js';

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
}

/** Rooms, floors, device assignment and favourites (docs/rooms.md). */
export function roomsModule(deps: RoomsModuleDeps): Module {
  const log = deps.log.child({ domain: 'rooms' });
  const topic = `${deps.topicPrefix}/instances/rooms`;
  // This instance, to recognise its own changes when the bus hands them back.
  const origin = crypto.randomUUID();
  const share = (change: RoomsChange) => {
    deps.bus
      .publish(topic, JSON.stringify({ origin, change }), { qos: 1 })
      .catch((error) => log.warn({ err: error }, 'telling the other instances of a room change failed'));
  };
  const service = new RoomsService({
    repository: new RoomsRepository(deps.db, deps.dialect),
    devices: deps.devices,
    share,
  });
  let unsubscribe: (() => void) | undefined;
  let closed = false;

  return {
    name: 'rooms',
    register: (app) => registerRoomsRoutes(app, deps.guards, service, deps.activity ?? noActivity),
    start() {
      // docs/rooms.md#several-instances: another instance's change reaches this one's pages too.
      // Not awaited: a bus that is still down must not hold up the start.
      deps.bus
        .subscribe(topic, (_topic, payload) => {
          let parsed: ReturnType<typeof sharedChange.parse>;
          try {
            parsed = sharedChange.parse(JSON.parse(payload.toString()));
          } catch {
            return void log.warn({ topic }, 'room change from the bus is not one; ignored');
          }
          if (parsed.origin !== origin) applyChange(deps.devices, parsed.change);
        })
        .then((remove) => {
          if (closed) remove();
          else unsubscribe = remove;
        })
        .catch((error) =>
          log.error({ err: error }, 'listening for the room changes of other instances failed'),
        );
    },
    close() {
      closed = true;
      unsubscribe?.();
    },
  };
}

import { sceneTopics } from '@hearth/contracts';
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import { z } from 'zod';
import { type ActivityLog, noActivity } from '../activity/index.js';
import type { Bus } from '../bus/bus.js';
import { instanceChanges } from '../bus/instance-changes.js';
import type { DeviceDirectory, DeviceFeed, DeviceGate, ReachSource } from '../devicehub/index.js';
import type { Module } from '../lifecycle/module.js';
import type { Database } from '../storage/schema.js';
import type { Guards } from '../users/index.js';
import { ScenesRepository } from './scenes.repository.js';
import { registerScenesRoutes } from './scenes.routes.js';
import { ScenesService } from './scenes.service.js';

export interface ScenesModuleDeps {
  db: Kysely<Database>;
  log: Logger;
  guards: Guards;
  devices: DeviceDirectory;
  feed: DeviceFeed;
  gate: DeviceGate;
  reach: ReachSource;
  /** Instances sharing the database tell each other's open pages of changes. */
  bus: Bus;
  /** DEVICEHUB_TOPIC_PREFIX */
  topicPrefix: string;
  /** Commands per second when a scene is applied. */
  commandsPerSecond?: number;
  /** Where creating, editing and deleting scenes is recorded (docs/activity.md); none: not recorded. */
  activity?: ActivityLog;
}

export interface ScenesModule extends Module {
  /** What automations apply scenes through. */
  service: ScenesService;
}

const changeSchema = z.object({ id: z.string().min(1).max(200), removed: z.boolean() });

/** Scenes (docs/automations.md#scenes). */
export function scenesModule(deps: ScenesModuleDeps): ScenesModule {
  const log = deps.log.child({ domain: 'scenes' });
  const instances = instanceChanges({
    bus: deps.bus,
    topic: `${deps.topicPrefix}/instances/scenes`,
    log,
    schema: changeSchema,
    apply: (change) => deps.devices.publishEvent(sceneTopics.changed, change, 'managers'),
    what: 'scene change',
  });
  const service = new ScenesService({
    repository: new ScenesRepository(deps.db),
    devices: deps.devices,
    feed: deps.feed,
    gate: deps.gate,
    shared: (id, removed) => instances.share({ id, removed }),
    ...(deps.commandsPerSecond ? { commandsPerSecond: deps.commandsPerSecond } : {}),
  });
  return {
    name: 'scenes',
    service,
    register: (app) =>
      registerScenesRoutes(app, deps.guards, service, deps.reach, deps.activity ?? noActivity),
    start: () => instances.start(),
    close: () => instances.close(),
  };
}

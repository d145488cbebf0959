import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import { type ActivityLog, noActivity } from '../activity/index.js';
import type { DeviceControl } from '../devicehub/index.js';
import type { Module } from '../lifecycle/module.js';
import type { Database } from '../storage/schema.js';
import type { Guards } from '../users/index.js';
import { type CreatorReach, roleReach } from './passes.reach.js';
import { PassesRepository } from './passes.repository.js';
import { registerPassesRoutes } from './passes.routes.js';
import { PassesService } from './passes.service.js';

export interface PassesModuleDeps {
  db: Kysely<Database>;
  log: Logger;
  guards: Guards;
  /** The hub's devices and commands. */
  devices: DeviceControl;
  /** PUBLIC_URL, the base of the links handed out. */
  publicUrl: string;
  /** HOUSEHOLD_TIME_ZONE */
  timeZone: string;
  /** What a pass's creator may do now (access rules); default: by role. */
  creatorReach?: CreatorReach;
  activity?: ActivityLog;
}

export interface PassesModule extends Module {
  service: PassesService;
}

/** Guest passes (docs/passes.md). */
export function passesModule(deps: PassesModuleDeps): PassesModule {
  const activity = deps.activity ?? noActivity;
  const service = new PassesService({
    repository: new PassesRepository(deps.db),
    devices: deps.devices,
    creatorReach: deps.creatorReach ?? roleReach,
    activity,
    publicUrl: deps.publicUrl,
    timeZone: deps.timeZone,
  });
  return {
    name: 'passes',
    service,
    register: (app) => registerPassesRoutes(app, deps.guards, service, activity),
  };
}

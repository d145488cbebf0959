import type { Kysely } from 'kysely';
import type { DeviceDirectory } from '../devicehub/index.js';
import type { Module } from '../lifecycle/module.js';
import type { Database } from '../storage/schema.js';
import type { Guards } from '../users/index.js';
import { RoomsRepository } from './rooms.repository.js';
import { registerRoomsRoutes } from './rooms.routes.js';
import { RoomsService } from './rooms.service.js';

export interface RoomsModuleDeps {
  db: Kysely<Database>;
  guards: Guards;
  /** The device hub: which devices exist, their room on the wire, and events to browsers. */
  devices: DeviceDirectory;
}

/** Rooms, floors, device assignment and favourites (docs/rooms.md). */
export function roomsModule(deps: RoomsModuleDeps): Module {
  const service = new RoomsService({ repository: new RoomsRepository(deps.db), devices: deps.devices });
  return {
    name: 'rooms',
    register: (app) => registerRoomsRoutes(app, deps.guards, service),
  };
}

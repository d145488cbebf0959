// The device hub as app.ts sees it.

export { readBinary } from './binary.js';
export { DevicehubMessages } from './devicehub.errors.js';
export {
  type DeviceDirectory,
  type DeviceFeed,
  type DeviceGate,
  type DeviceHubModule,
  type DeviceHubModuleDeps,
  deviceHubModule,
} from './devicehub.module.js';
export { deviceCommandBody } from './devicehub.schemas.js';
export type { DeviceListener } from './devicehub.service.js';
export type { ApiTokenAuthenticator, PassAuthenticator } from './edge/edge-connect.js';
export {
  EVERYTHING,
  mayManageDevices,
  NOTHING,
  type Principal,
  type Reach,
  type ReachSource,
  roleReach,
  type Sight,
  sightOf,
} from './reach.js';

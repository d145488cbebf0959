// The device hub as app.ts sees it.

export { readBinary } from './binary.js';
export { DevicehubMessages } from './devicehub.errors.js';
export {
  type DeviceControl,
  type DeviceDirectory,
  type DeviceFeed,
  type DeviceHubModule,
  type DeviceHubModuleDeps,
  deviceHubModule,
} from './devicehub.module.js';
export { deviceCommandBody } from './devicehub.schemas.js';
export type { DeviceListener } from './devicehub.service.js';

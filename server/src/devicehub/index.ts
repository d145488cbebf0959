// The device hub as app.ts sees it.
export {
  type DeviceDirectory,
  type DeviceHubModule,
  type DeviceHubModuleDeps,
  deviceHubModule,
} from './devicehub.module.js';

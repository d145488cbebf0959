// The device hub as app.ts sees it.
export { type DeviceHubModuleDeps, deviceHubModule } from './devicehub.module.js';

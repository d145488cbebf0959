// The health check as app.ts sees it.
export { healthModule } from './health.module.js';
export type { HealthCheck, HealthDetails } from './health.routes.js';

// Web Push as app.ts sees it (docs/alerts.md#web-push).
export { type PushModule, type PushModuleDeps, pushModule } from './push.module.js';

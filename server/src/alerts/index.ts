// Alerts as app.ts sees them (docs/alerts.md).
export { type AlertsModule, type AlertsModuleDeps, alertsModule } from './alerts.module.js';

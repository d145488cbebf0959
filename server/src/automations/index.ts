// Automations as app.ts sees them (docs/automations.md).

export {
  type AutomationsModule,
  type AutomationsModuleDeps,
  automationsModule,
} from './automations.module.js';
export type { AutomationMessage, Notifier } from './automations.notifier.js';

// History as app.ts sees it.
export { type HistoryModuleDeps, historyModule } from './history.module.js';

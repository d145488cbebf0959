// Guest passes as app.ts and the device stream see them.
export { type PassesModule, type PassesModuleDeps, passesModule } from './passes.module.js';
export type { CreatorReach, Reach } from './passes.reach.js';
export type { OpenPass, PassesService } from './passes.service.js';

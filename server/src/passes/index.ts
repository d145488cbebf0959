// Guest passes as app.ts sees them.
export { type PassesModule, type PassesModuleDeps, passesModule } from './passes.module.js';

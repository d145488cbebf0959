// The access rules as app.ts sees them (docs/access.md).
export { type AccessModule, type AccessModuleDeps, type AccessReset, accessModule } from './access.module.js';

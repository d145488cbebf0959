// The access rules as app.ts sees them (docs/access.md).
export {
  type AccessModule,
  type AccessModuleDeps,
  type AccessReset,
  accessModule,
  type RoomRulesCarry,
} from './access.module.js';

// The users domain as other domains and app.ts see it.
export { callerOf, type Guard, type Guards } from './caller.js';
export { PROFILE_PICTURES_PATH, toUserView } from './user.view.js';
export { USER_ADMIN_ERRORS } from './users.errors.js';
export { type UsersModuleDeps, usersModule } from './users.module.js';
export { manageDenial } from './users.policy.js';
export {
  type NewUser,
  normaliseEmail,
  type Role,
  type UserRecord,
  UsersRepository,
} from './users.repository.js';
export type { RoleChangeRules, SessionRevoker } from './users.service.js';

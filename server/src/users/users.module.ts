import type { Kysely } from 'kysely';
import { type ActivityLog, noActivity } from '../activity/index.js';
import type { Module } from '../lifecycle/module.js';
import type { Dialect } from '../storage/database.js';
import type { Database } from '../storage/schema.js';
import type { Guards } from './caller.js';
import { PreferencesRepository } from './preferences.repository.js';
import { registerPreferencesRoutes } from './preferences.routes.js';
import type { UsersRepository } from './users.repository.js';
import { registerUsersRoutes } from './users.routes.js';
import { type RoleChangeRules, type SessionRevoker, UsersService } from './users.service.js';
import { UsersAdminRepository } from './users-admin.repository.js';

export interface UsersModuleDeps {
  db: Kysely<Database>;
  dialect: Dialect;
  users: UsersRepository;
  guards: Guards;
  sessions: SessionRevoker;
  /** Where role changes and locks are recorded (docs/activity.md); none: not recorded. */
  activity?: ActivityLog;
  /** The access rules of a role change (docs/access.md#granting); none: `reset_access` is refused. */
  access?: RoleChangeRules;
  /** Revokes an account's API tokens at its lock; none: tokens are left alone. */
  revokeApiTokens?: (userId: string) => Promise<void>;
}

/** User administration: the Users page's list, role changes, names and locks; and each person's preferences. */
export function usersModule(deps: UsersModuleDeps): Module {
  const service = new UsersService({
    users: deps.users,
    admin: new UsersAdminRepository(deps.db, deps.dialect),
    sessions: deps.sessions,
    ...(deps.access ? { access: deps.access } : {}),
    ...(deps.revokeApiTokens ? { revokeApiTokens: deps.revokeApiTokens } : {}),
  });
  return {
    name: 'users',
    register: (app) => {
      registerUsersRoutes(app, deps.guards, service, deps.activity ?? noActivity);
      registerPreferencesRoutes(app, deps.guards, new PreferencesRepository(deps.db));
    },
  };
}

import type { User, UsersPage } from '@hearth/contracts';
import type { Kysely } from 'kysely';
import { HttpError } from '../http/errors.js';
import type { Database } from '../storage/schema.js';
import { toUserView } from './user.view.js';
import { USER_ADMIN_ERRORS } from './users.errors.js';
import { lockDenial, manageDenial, roleChangeDenial } from './users.policy.js';
import type { Role, UserRecord, UsersRepository } from './users.repository.js';
import type { ListUsersQuery, UserUpdate } from './users.schemas.js';
import type { UsersAdminRepository } from './users-admin.repository.js';

/** Ends a user's sessions (implemented by the accounts domain). */
export interface SessionRevoker {
  revokeAllForUser(userId: string): Promise<void>;
}

/** What a role change does to the access rules (implemented by the access domain, docs/access.md#granting). */
export interface RoleChangeRules {
  /** Why the caller may not reset the target's rules along with the role change (403), or undefined. */
  resetDenial(caller: UserRecord, target: UserRecord): Promise<string | undefined>;
  /**
   * Inside the role change's transaction (`db`): the target's rules for its new role, reset or kept
   * (capped at the caller's own reach). Answers whether they changed.
   */
  roleChanged(
    db: Kysely<Database>,
    caller: UserRecord,
    target: UserRecord,
    role: Role,
    reset: boolean,
  ): Promise<boolean>;
  /** Once stored: the accounts' open streams follow. */
  changed(userIds: string[]): void;
}

export interface UsersServiceDeps {
  users: UsersRepository;
  admin: UsersAdminRepository;
  sessions: SessionRevoker;
  /** The access rules of a role change; none: `reset_access` is refused and rules are left alone. */
  access?: RoleChangeRules;
  /** Revokes an account's API tokens (a lock does; docs/api.md#api-tokens). */
  revokeApiTokens?: (userId: string) => Promise<void>;
}

const denied = (message: string) => new HttpError(403, message);
const notFound = () => new HttpError(404, USER_ADMIN_ERRORS.notFound);

/** User administration (docs/screens.md#users-page, docs/roles.md): listing, roles, names and the administrator's lock. */
export class UsersService {
  constructor(private readonly deps: UsersServiceDeps) {}

  async list(query: ListUsersQuery): Promise<UsersPage> {
    const { page, page_size: pageSize } = query;
    const { users, total } = await this.deps.admin.search({ q: query.q, page, pageSize });
    return {
      users: users.map(toUserView),
      page,
      page_size: pageSize,
      total,
      total_pages: Math.max(1, Math.ceil(total / pageSize)),
    };
  }

  /** A user may edit their own names; residents and admins manage others within the role rules. */
  async update(caller: UserRecord, id: string, update: UserUpdate): Promise<User> {
    if (caller.role === 'user' && id !== caller.id) throw denied(USER_ADMIN_ERRORS.forbidden);
    let target = await this.deps.users.findById(id);
    if (!target) throw notFound();
    const denial = manageDenial(caller, target);
    if (denial) throw denied(denial);

    const { role, first_name: firstName, last_name: lastName, reset_access: reset } = update;
    if (role !== undefined) {
      const before = target.role;
      // Checked before anything changes: a refused reset leaves the role as it was too.
      const { access } = this.deps;
      if (reset) {
        const resetDenial = access ? await access.resetDenial(caller, target) : USER_ADMIN_ERRORS.forbidden;
        if (resetDenial) throw denied(resetDenial);
      }
      let rulesChanged = false;
      target = this.changed(
        await this.deps.admin.setRole(
          id,
          role,
          (current, otherAdmins) => roleChangeDenial(caller, current, role, otherAdmins),
          // In the same transaction: a promotion and the narrowing it carries land together.
          async (trx, current) => {
            if (access && (reset || current.role !== role))
              rulesChanged = await access.roleChanged(trx, caller, current, role, Boolean(reset));
          },
        ),
      );
      if (rulesChanged) this.deps.access?.changed([id]);
      // A new role starts with a new sign-in: every session and token of the old role ends.
      if (target.role !== before) await this.deps.sessions.revokeAllForUser(id);
    }
    if (firstName !== undefined || lastName !== undefined) {
      const renamed = await this.deps.admin.updateNames(
        id,
        firstName ?? target.firstName,
        lastName ?? target.lastName,
      );
      if (!renamed) throw notFound();
      target = renamed;
    }
    return toUserView(target);
  }

  /** Locking ends every session of the user at once. */
  async setLock(caller: UserRecord, id: string, lock: boolean): Promise<User> {
    const user = this.changed(
      await this.deps.admin.setAdminLock(id, lock, (target, otherActiveAdmins) =>
        lockDenial(caller, target, lock, otherActiveAdmins),
      ),
    );
    if (lock) {
      await this.deps.sessions.revokeAllForUser(user.id);
      await this.deps.revokeApiTokens?.(user.id);
    }
    return toUserView(user);
  }

  private changed(result: Awaited<ReturnType<UsersAdminRepository['setRole']>>): UserRecord {
    if ('notFound' in result) throw notFound();
    if ('denial' in result) throw denied(result.denial);
    return result.user;
  }
}

import type { User, UsersPage } from '@hearth/contracts';
import { HttpError } from '../http/errors.js';
import { toUserView } from './user.view.js';
import { USER_ADMIN_ERRORS } from './users.errors.js';
import { lockDenial, manageDenial, roleChangeDenial } from './users.policy.js';
import type { UserRecord, UsersRepository } from './users.repository.js';
import type { ListUsersQuery, UserUpdate } from './users.schemas.js';
import type { UsersAdminRepository } from './users-admin.repository.js';

/** Ends a user's sessions (implemented by the accounts domain). */
export interface SessionRevoker {
  revokeAllForUser(userId: string): Promise<void>;
}

export interface UsersServiceDeps {
  users: UsersRepository;
  admin: UsersAdminRepository;
  sessions: SessionRevoker;
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

    const { role, first_name: firstName, last_name: lastName } = update;
    if (role !== undefined) {
      target = this.changed(
        await this.deps.admin.setRole(id, role, (current, otherAdmins) =>
          roleChangeDenial(caller, current, role, otherAdmins),
        ),
      );
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
    if (lock) await this.deps.sessions.revokeAllForUser(user.id);
    return toUserView(user);
  }

  private changed(result: Awaited<ReturnType<UsersAdminRepository['setRole']>>): UserRecord {
    if ('notFound' in result) throw notFound();
    if ('denial' in result) throw denied(result.denial);
    return result.user;
  }
}

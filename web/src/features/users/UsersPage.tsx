import type { Role, User } from '@hearth/contracts';
import { ShieldCheck } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { useSession } from '../../shared/session/session-context.js';
import { fetchRules } from '../access/access.api.js';
import { hasRules } from '../access/access.model.js';
import { Pagination } from './Pagination.js';
import { RoleChangeDialog } from './RoleChangeDialog.js';
import { SkeletonRow, UserRow } from './UserRow.js';
import { UsersSearch } from './UsersSearch.js';
import { useUsersDirectory } from './use-users-directory.js';
import { subtitle, USERS_MESSAGES } from './users.messages.js';
import { SKELETON_ROWS } from './users.query.js';
import { canViewUsers } from './users.roles.js';
import './users.css';

/** docs/screens.md#users-page: search the directory, change roles, lock and unlock accounts. */
export default function UsersPage() {
  const { user, loading } = useSession();
  const allowed = canViewUsers(user?.role);
  const directory = useUsersDirectory(allowed);
  const [roleChange, setRoleChange] = useState<{ user: User; role: Role } | null>(null);
  /**
   * docs/screens.md#role-and-lock-changes: a new role asks whether to keep the person's access rules
   * only when they have some (or when they cannot be read); otherwise it is changed at once.
   */
  const chooseRole = async (person: User, role: Role) => {
    if (role === person.role) return;
    const rules = await fetchRules(person.id);
    if (rules.success && !hasRules(rules.data)) await directory.changeRole(person, role, false);
    else setRoleChange({ user: person, role });
  };
  if (loading && !user) return <section className="users-page" aria-busy="true" />;
  if (!user || !allowed) {
    return (
      <section className="users-page">
        <p className="users-denied">{USERS_MESSAGES.noPermission}</p>
      </section>
    );
  }

  const { query, dispatch, list, loading: fetching, firstLoad, error, saving } = directory;
  const totalPages = Math.max(1, list?.total_pages ?? 1);
  return (
    <section className="users-page" aria-labelledby="users-title">
      <header className="users-header">
        <div className="users-header-text">
          <h1 id="users-title">Users</h1>
          <p className="users-subtitle">{subtitle(list?.total ?? 0)}</p>
        </div>
        <Link to="/users/access" className="button button--secondary button--small">
          <ShieldCheck size={16} aria-hidden="true" />
          {USERS_MESSAGES.accessRules}
        </Link>
      </header>
      <UsersSearch
        pageSize={query.pageSize}
        busy={fetching}
        onSearch={(q) => dispatch({ type: 'search', q })}
        onPageSize={(pageSize) => dispatch({ type: 'pageSize', pageSize })}
      />
      <div className="users-alert-slot">
        {error && (
          <div className="users-alert" role="alert">
            {error}
          </div>
        )}
      </div>
      <div className="users-table-wrap">
        <table className="users-table" aria-busy={fetching}>
          <thead>
            <tr>
              <th scope="col">User</th>
              <th scope="col">Email</th>
              <th scope="col">Role</th>
              <th scope="col">Verified</th>
              <th scope="col">Active</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {firstLoad &&
              Array.from({ length: SKELETON_ROWS }, (_, index) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: placeholders have nothing else to key on.
                <SkeletonRow key={index} />
              ))}
            {list?.users.map((row) => (
              <UserRow
                key={row.id}
                user={row}
                viewer={user}
                saving={saving}
                onRole={(person, role) => void chooseRole(person, role)}
                onToggleLock={directory.toggleLock}
              />
            ))}
            {list && list.users.length === 0 && (
              <tr className="users-row users-row--empty">
                <td colSpan={6}>No users found</td>
              </tr>
            )}
          </tbody>
        </table>
      </div>
      <Pagination
        page={query.page}
        totalPages={totalPages}
        busy={fetching}
        onPage={(page) => dispatch({ type: 'page', page, totalPages })}
      />
      {roleChange && (
        <RoleChangeDialog
          user={roleChange.user}
          role={roleChange.role}
          onCancel={() => setRoleChange(null)}
          onChoose={(reset) => {
            setRoleChange(null);
            void directory.changeRole(roleChange.user, roleChange.role, reset);
          }}
        />
      )}
    </section>
  );
}

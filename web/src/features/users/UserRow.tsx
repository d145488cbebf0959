import type { Role, User } from '@hearth/contracts';
import { Avatar } from '../../shared/ui/Avatar.js';
import type { Saving } from './use-users-directory.js';
import { canToggleLock, roleChoice } from './users.roles.js';

interface UserRowProps {
  user: User;
  viewer: User;
  saving: Saving | null;
  onRole(user: User, role: Role): void;
  onToggleLock(user: User): void;
}

const fullName = (user: User) => [user.first_name, user.last_name].filter(Boolean).join(' ') || user.name;

export function UserRow({ user, viewer, saving, onRole, onToggleLock }: UserRowProps) {
  const choice = roleChoice(viewer, user);
  const savingThis = saving?.id === user.id;
  const nameId = `users-row-${user.id}`;
  return (
    <tr className="users-row" data-user-id={user.id}>
      <td data-label="User">
        <div className="users-person">
          <Avatar user={user} size={40} />
          <div className="users-person__text" id={nameId}>
            <span className="users-person__name">{fullName(user)}</span>
            <span className="users-person__handle">@{user.user_name}</span>
          </div>
        </div>
      </td>
      <td data-label="Email" className="users-email">
        {user.email}
      </td>
      <td data-label="Role">
        <select
          className="select users-role"
          aria-label={`Role for ${user.user_name}`}
          value={user.role}
          disabled={choice.locked || savingThis}
          onChange={(event) => onRole(user, event.target.value as Role)}
        >
          {choice.options.map(({ role, disabled }) => (
            <option key={role} value={role} disabled={disabled}>
              {role}
            </option>
          ))}
        </select>
      </td>
      <td data-label="Verified">
        <span className={`badge ${user.email_confirmed ? 'tone-success' : 'tone-muted'}`}>
          {user.email_confirmed ? 'Verified' : 'Unverified'}
        </span>
      </td>
      <td data-label="Active">
        <span className={`badge ${user.lockout_enabled ? 'tone-danger' : 'tone-success'}`}>
          {user.lockout_enabled ? 'Locked' : 'Active'}
        </span>
      </td>
      <td data-label="Actions">
        <button
          type="button"
          className="button button--secondary users-lock"
          aria-describedby={nameId}
          disabled={savingThis || !canToggleLock(viewer, user)}
          onClick={() => onToggleLock(user)}
        >
          {savingThis && saving?.kind === 'lockout' ? 'Saving…' : user.lockout_enabled ? 'Unlock' : 'Lock'}
        </button>
      </td>
    </tr>
  );
}

export function SkeletonRow() {
  return (
    <tr className="users-row users-row--skeleton">
      {['User', 'Email', 'Role', 'Verified', 'Active', 'Actions'].map((label) => (
        <td key={label} data-label={label}>
          <span className={`users-skeleton users-skeleton--${label.toLowerCase()}`} />
        </td>
      ))}
    </tr>
  );
}

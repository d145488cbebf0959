import type { User } from '@hearth/contracts';
import { type FormEvent, useState } from 'react';
import { Avatar } from '../../shared/ui/Avatar.js';
import { Field } from '../../shared/ui/Field.js';
import { settingsApi } from './settings.api.js';
import { validateProfile } from './settings.validation.js';
import type { AccountAction } from './use-account-action.js';

interface ProfileCardProps {
  user: User;
  action: AccountAction;
  onChangePhoto(): void;
}

export function displayName(user: Pick<User, 'first_name' | 'last_name' | 'name' | 'user_name'>): string {
  return [user.first_name, user.last_name].filter(Boolean).join(' ').trim() || user.name || user.user_name;
}

/** docs/screens.md#account-settings profile card: avatar with "Change Photo", name, e-mail, Username and the name editor. */
export function ProfileCard({ user, action, onChangePhoto }: ProfileCardProps) {
  const [editing, setEditing] = useState(false);
  const [firstName, setFirstName] = useState(user.first_name);
  const [lastName, setLastName] = useState(user.last_name);

  const startEditing = () => {
    setFirstName(user.first_name);
    setLastName(user.last_name);
    setEditing(true);
  };

  const save = async (event: FormEvent) => {
    event.preventDefault();
    const invalid = validateProfile(firstName, lastName);
    if (invalid) return action.fail(invalid);
    const saved = await action.run('profile', () =>
      settingsApi.updateProfile(user.id, firstName.trim(), lastName.trim()),
    );
    if (saved) setEditing(false);
  };

  return (
    <section className="settings-card" aria-labelledby="settings-profile-title">
      <h3 id="settings-profile-title" className="settings-card__title">
        Profile
      </h3>
      <div className="settings-profile">
        <div className="settings-profile__photo">
          <Avatar user={user} size={80} />
          <button type="button" className="button button--secondary button--small" onClick={onChangePhoto}>
            Change Photo
          </button>
        </div>
        <dl className="settings-facts">
          <div>
            <dt>Name</dt>
            <dd data-testid="settings-name">{displayName(user)}</dd>
          </div>
          <div>
            <dt>Email</dt>
            <dd>{user.email}</dd>
          </div>
          <div>
            <dt>Username</dt>
            <dd>{user.user_name}</dd>
          </div>
        </dl>
      </div>
      {editing ? (
        <form className="settings-form" onSubmit={save} noValidate>
          <div className="settings-form__row">
            <Field
              label="First Name"
              value={firstName}
              onChange={(event) => setFirstName(event.target.value)}
              autoComplete="given-name"
            />
            <Field
              label="Last Name"
              value={lastName}
              onChange={(event) => setLastName(event.target.value)}
              autoComplete="family-name"
            />
          </div>
          <div className="settings-actions">
            <button type="submit" className="button button--primary" disabled={action.busy === 'profile'}>
              Save Changes
            </button>
            <button type="button" className="button button--secondary" onClick={() => setEditing(false)}>
              Cancel
            </button>
          </div>
        </form>
      ) : (
        <div className="settings-actions">
          <button type="button" className="button button--secondary" onClick={startEditing}>
            Edit Profile
          </button>
        </div>
      )}
    </section>
  );
}

import { type FormEvent, useState } from 'react';
import type { ApiResult } from '../../shared/api/client.js';
import { saveTokens } from '../../shared/session/token-store.js';
import { Field } from '../../shared/ui/Field.js';
import { settingsApi } from './settings.api.js';
import { validatePasswordChange } from './settings.validation.js';
import type { AccountAction } from './use-account-action.js';

/**
 * A password change ends every other session of the user; the server answers with a fresh
 * token pair for this one, which the session must take or it ends at the next refresh.
 */
function keepSession({ data }: ApiResult) {
  const tokens = data as { access_token?: unknown; refresh_token?: unknown } | null;
  if (typeof tokens?.access_token !== 'string') return;
  saveTokens({
    access_token: tokens.access_token,
    refresh_token: typeof tokens.refresh_token === 'string' ? tokens.refresh_token : undefined,
  });
}

const EMPTY = { currentPassword: '', newPassword: '', confirmPassword: '' };

/** docs/screens.md#account-settings / docs/strings.md#validation-rules: the "Change Password" toggle and its three fields. */
export function ChangePasswordForm({ action }: { action: AccountAction }) {
  const [open, setOpen] = useState(false);
  const [fields, setFields] = useState(EMPTY);

  const toggle = () => {
    setOpen(!open);
    setFields(EMPTY);
  };
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const invalid = validatePasswordChange(fields);
    if (invalid) return action.fail(invalid);
    const changed = await action.run(
      'password',
      () => settingsApi.changePassword(fields.currentPassword, fields.newPassword),
      keepSession,
    );
    if (changed) {
      setFields(EMPTY);
      setOpen(false);
    }
  };
  const field = (name: keyof typeof EMPTY, label: string, autoComplete: string) => (
    <Field
      label={label}
      type="password"
      value={fields[name]}
      autoComplete={autoComplete}
      onChange={(event) => setFields({ ...fields, [name]: event.target.value })}
    />
  );

  return (
    <div className="settings-security-item">
      <div className="settings-security-item__head">
        <span className="settings-security-item__label">Password</span>
        <button
          type="button"
          className="button button--secondary"
          onClick={toggle}
          aria-expanded={open}
          aria-controls={open ? 'settings-password-form' : undefined}
        >
          {open ? 'Cancel Password Change' : 'Change Password'}
        </button>
      </div>
      {open && (
        <form id="settings-password-form" className="settings-form" onSubmit={submit} noValidate>
          {field('currentPassword', 'Current Password', 'current-password')}
          {field('newPassword', 'New Password', 'new-password')}
          {field('confirmPassword', 'Confirm New Password', 'new-password')}
          <div className="settings-actions">
            <button type="submit" className="button button--primary" disabled={action.busy === 'password'}>
              Update Password
            </button>
          </div>
        </form>
      )}
    </div>
  );
}

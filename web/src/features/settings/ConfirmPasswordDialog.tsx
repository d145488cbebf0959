import { type FormEvent, useId, useState } from 'react';
import { Dialog, DialogActions } from '../../shared/ui/Dialog.js';
import { Field } from '../../shared/ui/Field.js';
import { settingsApi } from './settings.api.js';

export const CONFIRM_PASSWORD = {
  title: 'Confirm your password',
  password: 'Password',
  cancel: 'Cancel',
  confirm: 'Confirm',
  confirming: 'Confirming...',
  required: 'Password is required',
  failure: 'Failed to confirm password',
} as const;

/**
 * docs/screens.md#account-settings: a call that needs a recent sign-in (connecting a provider)
 * asks for the password again, on top of Account Settings; `reason` is the server's refusal
 * ("Enter your password to connect {provider}"). POST /api/auth/reauth, then `onConfirmed`.
 */
export function ConfirmPasswordDialog({
  reason,
  onConfirmed,
  onCancel,
}: {
  reason: string;
  onConfirmed(): void;
  onCancel(): void;
}) {
  const headingId = useId();
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!password) return setError(CONFIRM_PASSWORD.required);
    setBusy(true);
    const result = await settingsApi.reauth(password);
    setBusy(false);
    if (!result.success) return setError(result.error ?? CONFIRM_PASSWORD.failure);
    onConfirmed();
  };

  return (
    <Dialog labelledBy={headingId} onClose={onCancel} size="small">
      <form className="settings-form" onSubmit={submit} noValidate>
        <h2 id={headingId} className="dialog-title">
          {CONFIRM_PASSWORD.title}
        </h2>
        <p className="settings-dialog-text">{reason}</p>
        <Field
          label={CONFIRM_PASSWORD.password}
          type="password"
          autoComplete="current-password"
          value={password}
          onChange={(event) => setPassword(event.target.value)}
          data-autofocus
        />
        {error && (
          <p className="settings-status settings-status--error" role="alert">
            {error}
          </p>
        )}
        <DialogActions leaveLabel={CONFIRM_PASSWORD.cancel} onLeave={onCancel}>
          <button type="submit" className="button button--primary" disabled={busy}>
            {busy ? CONFIRM_PASSWORD.confirming : CONFIRM_PASSWORD.confirm}
          </button>
        </DialogActions>
      </form>
    </Dialog>
  );
}

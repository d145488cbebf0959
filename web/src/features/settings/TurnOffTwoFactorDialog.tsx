import { type FormEvent, useId, useState } from 'react';
import { Dialog, DialogActions } from '../../shared/ui/Dialog.js';
import { Field } from '../../shared/ui/Field.js';
import { settingsApi } from './settings.api.js';
import { TWO_FACTOR_OFF as T } from './settings.messages.js';

/**
 * docs/screens.md#security-card: turning 2FA off asks for the password, on top of Account
 * Settings (POST /api/auth/2fa/disable). A refusal (a wrong password, the lockout) shows the
 * server's text in the dialog and keeps it open; success closes it and calls `onDone`.
 */
export function TurnOffTwoFactorDialog({ onDone, onCancel }: { onDone(): void; onCancel(): void }) {
  const headingId = useId();
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!password) return setError(T.required);
    setBusy(true);
    const result = await settingsApi.disableTwoFactor(password);
    setBusy(false);
    if (!result.success) return setError(result.error ?? T.failure);
    onDone();
  };

  return (
    <Dialog labelledBy={headingId} onClose={onCancel} size="small">
      <form className="settings-form" onSubmit={submit} noValidate>
        <h2 id={headingId} className="dialog-title">
          {T.title}
        </h2>
        <p className="settings-dialog-text">{T.text}</p>
        <Field
          label={T.password}
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
        <DialogActions leaveLabel={T.cancel} onLeave={onCancel}>
          <button type="submit" className="button button--danger" disabled={busy}>
            {busy ? T.busy : T.confirm}
          </button>
        </DialogActions>
      </form>
    </Dialog>
  );
}

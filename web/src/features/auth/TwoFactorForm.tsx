import { type FormEvent, useState } from 'react';
import { Field } from '../../shared/ui/Field.js';
import { FormMessage } from './FormMessage.js';
import type { LoginFlow, PendingTwoFactor } from './use-login-flow.js';

/** docs/screens.md#auth-modal 2FA form: replaces the login form while a second factor is pending. */
export function TwoFactorForm({ flow, pending }: { flow: LoginFlow; pending: PendingTwoFactor }) {
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const isEmail = pending.type === 'email';

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    setNotice(null);
    const problem = await flow.verify(code);
    if (problem) setError(problem);
  };

  const requestCode = async () => {
    setError(null);
    setNotice(null);
    setSending(true);
    const { message, ok } = await flow.requestNewCode();
    setSending(false);
    if (ok) setNotice(message);
    else setError(message);
  };

  return (
    <form className="auth-form" onSubmit={submit} noValidate>
      <h2 id="auth-heading">Enter 2FA Code</h2>
      <p className="auth-subtitle">
        {isEmail ? 'Check your email for the verification code' : 'Enter your 2FA code'}
      </p>
      <Field
        label="2FA Code"
        inputMode="numeric"
        autoComplete="one-time-code"
        value={code}
        onChange={(e) => setCode(e.target.value)}
        data-autofocus
        required
      />
      <div className="form-message-group">
        <FormMessage text={error} />
        <FormMessage text={notice} tone="info" />
      </div>
      <button type="submit" className="button button--primary button--block" disabled={flow.loading}>
        {flow.loading ? 'Verifying...' : 'Verify'}
      </button>
      {isEmail && (
        <button type="button" className="button button--secondary button--block" onClick={requestCode}>
          {sending ? 'Sending...' : 'Request New Code'}
        </button>
      )}
      <button type="button" className="button button--ghost button--block" onClick={flow.cancel}>
        Cancel Login
      </button>
    </form>
  );
}

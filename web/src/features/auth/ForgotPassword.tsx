import { type FormEvent, useEffect, useState } from 'react';
import { useToast } from '../../shared/toast/toast-context.js';
import { Dialog } from '../../shared/ui/Dialog.js';
import { Field } from '../../shared/ui/Field.js';
import { authApi, type OAuthProvider } from './auth.api.js';
import { FormMessage } from './FormMessage.js';
import { validateResetConfirm, validateResetRequest } from './validation.js';

/** The reset's question about connected providers (issue 32 item 12); unticked, they are disconnected. */
export const keepProvidersLabel = (providers: OAuthProvider[]) =>
  `Keep ${providers.map((provider) => provider.name).join(' and ')} connected`;

/**
 * docs/screens.md#auth-modal / docs/screens.md#forgot-password: the forgot-password overlay, step 1 (send code) and step 2 (reset).
 * With identity providers configured, step 2 asks whether to keep them connected (default: no).
 */
export function ForgotPassword({
  initialEmail,
  providers = [],
  onClose,
}: {
  initialEmail: string;
  providers?: OAuthProvider[];
  onClose(): void;
}) {
  const { showToast } = useToast();
  const [step, setStep] = useState<1 | 2>(1);
  const [email, setEmail] = useState(initialEmail);
  const [code, setCode] = useState('');
  const [newPassword, setNewPassword] = useState('');
  const [confirmPassword, setConfirmPassword] = useState('');
  const [keepProviders, setKeepProviders] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (step === 2) document.querySelector<HTMLElement>('#forgot-reset [data-autofocus]')?.focus();
  }, [step]);

  const sendCode = async (event: FormEvent) => {
    event.preventDefault();
    const invalid = validateResetRequest(email);
    setError(invalid);
    if (invalid) return;
    setBusy(true);
    const result = await authApi.requestPasswordReset(email.trim());
    setBusy(false);
    if (!result.success) {
      setError(result.error || 'Failed to send reset code');
      return;
    }
    setStep(2);
  };

  const reset = async (event: FormEvent) => {
    event.preventDefault();
    const invalid = validateResetConfirm(code, newPassword, confirmPassword);
    setError(invalid);
    if (invalid) return;
    setBusy(true);
    const result = await authApi.confirmPasswordReset(email.trim(), code.trim(), newPassword, keepProviders);
    setBusy(false);
    if (!result.success) {
      setError(result.error || 'Password reset failed');
      return;
    }
    onClose();
    showToast('Password reset successful! Please log in with your new password.');
  };

  return (
    <Dialog labelledBy="forgot-heading" onClose={onClose} size="small">
      {step === 1 ? (
        <form className="auth-form" onSubmit={sendCode} noValidate key="step1">
          <h2 id="forgot-heading">Forgot Password</h2>
          <Field
            label="Email"
            type="email"
            autoComplete="email"
            value={email}
            onChange={(e) => setEmail(e.target.value)}
            data-autofocus
          />
          <FormMessage text={error} />
          <button type="submit" className="button button--primary button--block" disabled={busy}>
            Send Code
          </button>
          <button type="button" className="button button--ghost button--block" onClick={onClose}>
            Cancel
          </button>
        </form>
      ) : (
        <form id="forgot-reset" className="auth-form" onSubmit={reset} noValidate key="step2">
          <h2 id="forgot-heading">Reset Password</h2>
          <Field
            label="Verification Code"
            inputMode="numeric"
            autoComplete="one-time-code"
            value={code}
            onChange={(e) => setCode(e.target.value)}
            data-autofocus
          />
          <Field
            label="New Password"
            type="password"
            autoComplete="new-password"
            value={newPassword}
            onChange={(e) => setNewPassword(e.target.value)}
          />
          <Field
            label="Confirm Password"
            type="password"
            autoComplete="new-password"
            value={confirmPassword}
            onChange={(e) => setConfirmPassword(e.target.value)}
          />
          {providers.length > 0 && (
            <label className="auth-check">
              <input
                type="checkbox"
                checked={keepProviders}
                onChange={(e) => setKeepProviders(e.target.checked)}
              />
              {keepProvidersLabel(providers)}
            </label>
          )}
          <FormMessage text={error} />
          <button type="submit" className="button button--primary button--block" disabled={busy}>
            Reset Password
          </button>
          <div className="button-row">
            <button
              type="button"
              className="button button--secondary"
              onClick={() => {
                setError(null);
                setStep(1);
              }}
            >
              Back
            </button>
            <button type="button" className="button button--ghost" onClick={onClose}>
              Cancel
            </button>
          </div>
        </form>
      )}
    </Dialog>
  );
}

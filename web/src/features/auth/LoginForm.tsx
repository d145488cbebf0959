import { type FormEvent, useEffect, useState } from 'react';
import { Field } from '../../shared/ui/Field.js';
import { FormMessage } from './FormMessage.js';
import { isLockout, secondsUntil } from './login-result.js';
import { useSecondsLeft } from './use-countdown.js';
import type { LoginFlow } from './use-login-flow.js';

interface Props {
  flow: LoginFlow;
  /** Opens the forgot-password overlay with the e-mail typed so far. */
  onForgotPassword(email: string): void;
  children?: React.ReactNode;
  initialEmail?: string;
}

/** docs/screens.md#auth-modal login form, with the lockout countdown of docs/screens.md#lockout. */
export function LoginForm({ flow, onForgotPassword, children, initialEmail = '' }: Props) {
  const [email, setEmail] = useState(initialEmail);
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [unlockAtMs, setUnlockAtMs] = useState<number | null>(null);
  const secondsLeft = useSecondsLeft(unlockAtMs);

  useEffect(() => {
    if (unlockAtMs !== null && secondsLeft === 0) {
      setUnlockAtMs(null);
      setError(null);
    }
  }, [unlockAtMs, secondsLeft]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    setUnlockAtMs(null);
    const result = await flow.login(email, password);
    if (result.success || result.twoFA) return;
    setError(result.error ?? null);
    if (isLockout(result)) {
      const seconds = secondsUntil(result, Date.now());
      if (seconds > 0) setUnlockAtMs(Date.now() + seconds * 1000);
    }
  };

  return (
    <form className="auth-form" onSubmit={submit} noValidate>
      <h2 id="auth-heading">Welcome Back</h2>
      <Field
        label="Email"
        type="email"
        autoComplete="username"
        value={email}
        onChange={(e) => setEmail(e.target.value)}
        data-autofocus
        required
      />
      <Field
        label="Password"
        type="password"
        autoComplete="current-password"
        value={password}
        onChange={(e) => setPassword(e.target.value)}
        required
      />
      <div className="form-message-group">
        <FormMessage text={error} />
        {secondsLeft > 0 && (
          <p className="form-countdown" aria-live="off">
            You can try again in {secondsLeft}s
          </p>
        )}
      </div>
      <button
        type="button"
        className="link-button auth-forgot"
        onClick={() => onForgotPassword(email.trim())}
      >
        Forgot password?
      </button>
      <button type="submit" className="button button--primary button--block" disabled={flow.loading}>
        {flow.loading ? 'Logging in...' : 'Log In'}
      </button>
      {children}
    </form>
  );
}

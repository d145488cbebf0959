import { type FormEvent, useState } from 'react';
import { useToast } from '../../shared/toast/toast-context.js';
import { Field } from '../../shared/ui/Field.js';
import { authApi, type SignUpInput } from './auth.api.js';
import { FormMessage } from './FormMessage.js';
import { validateSignUp } from './validation.js';

const EMPTY: SignUpInput = { firstName: '', lastName: '', userName: '', email: '', password: '' };

/** docs/screens.md#auth-modal sign-up form; on success the Log In tab opens with the e-mail filled in. */
export function SignUpForm({
  onSignedUp,
  children,
}: {
  onSignedUp(email: string): void;
  children?: React.ReactNode;
}) {
  const { showToast } = useToast();
  const [input, setInput] = useState(EMPTY);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const set = (key: keyof SignUpInput) => (event: React.ChangeEvent<HTMLInputElement>) =>
    setInput((current) => ({ ...current, [key]: event.target.value }));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const invalid = validateSignUp(input);
    setError(invalid);
    if (invalid) return;
    setBusy(true);
    const trimmed = {
      firstName: input.firstName.trim(),
      lastName: input.lastName.trim(),
      userName: input.userName.trim(),
      email: input.email.trim(),
      password: input.password,
    };
    const result = await authApi.signUp(trimmed);
    setBusy(false);
    if (!result.success) {
      setError(result.error || 'Signup failed');
      return;
    }
    showToast('Account created successfully!');
    onSignedUp(trimmed.email);
  };

  return (
    <form className="auth-form" onSubmit={submit} noValidate>
      <h2 id="auth-heading" className="visually-hidden">
        Sign Up
      </h2>
      <div className="field-row">
        <Field
          label="First Name"
          autoComplete="given-name"
          value={input.firstName}
          onChange={set('firstName')}
          data-autofocus
        />
        <Field
          label="Last Name"
          autoComplete="family-name"
          value={input.lastName}
          onChange={set('lastName')}
        />
      </div>
      <Field label="Username" autoComplete="username" value={input.userName} onChange={set('userName')} />
      <Field label="Email" type="email" autoComplete="email" value={input.email} onChange={set('email')} />
      <Field
        label="Password"
        type="password"
        autoComplete="new-password"
        value={input.password}
        onChange={set('password')}
      />
      <FormMessage text={error} />
      <button type="submit" className="button button--primary button--block" disabled={busy}>
        {busy ? 'Creating Account...' : 'Sign Up'}
      </button>
      {children}
    </form>
  );
}

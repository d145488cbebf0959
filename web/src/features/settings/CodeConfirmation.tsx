import { type FormEvent, useId, useState } from 'react';

interface CodeConfirmationProps {
  label: string;
  submitLabel: string;
  busy: boolean;
  onConfirm(code: string): Promise<boolean>;
}

/** docs/strings.md#validation-rules: a verification code input whose confirming button is disabled while it is empty. */
export function CodeConfirmation({ label, submitLabel, busy, onConfirm }: CodeConfirmationProps) {
  const [code, setCode] = useState('');
  const id = useId();
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!code.trim()) return;
    if (await onConfirm(code.trim())) setCode('');
  };
  return (
    <form className="settings-code" onSubmit={submit}>
      <label className="settings-field" htmlFor={id}>
        <span>{label}</span>
        <input
          id={id}
          value={code}
          onChange={(event) => setCode(event.target.value)}
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={12}
        />
      </label>
      <button
        type="submit"
        className="settings-button settings-button--primary"
        disabled={!code.trim() || busy}
      >
        {submitLabel}
      </button>
    </form>
  );
}

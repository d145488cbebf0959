import { type FormEvent, useState } from 'react';
import { Field } from '../../shared/ui/Field.js';

interface CodeConfirmationProps {
  label: string;
  submitLabel: string;
  busy: boolean;
  onConfirm(code: string): Promise<boolean>;
}

/** docs/strings.md#validation-rules: a verification code input whose confirming button is disabled while it is empty. */
export function CodeConfirmation({ label, submitLabel, busy, onConfirm }: CodeConfirmationProps) {
  const [code, setCode] = useState('');
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!code.trim()) return;
    if (await onConfirm(code.trim())) setCode('');
  };
  return (
    <form className="settings-code" onSubmit={submit}>
      <Field
        label={label}
        value={code}
        onChange={(event) => setCode(event.target.value)}
        inputMode="numeric"
        autoComplete="one-time-code"
        maxLength={12}
      />
      <button type="submit" className="button button--primary" disabled={!code.trim() || busy}>
        {submitLabel}
      </button>
    </form>
  );
}

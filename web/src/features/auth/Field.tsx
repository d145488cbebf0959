import { type InputHTMLAttributes, useId } from 'react';

/** A labelled input: the label is always visible, never a placeholder alone. */
export function Field({ label, ...input }: { label: string } & InputHTMLAttributes<HTMLInputElement>) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input id={id} {...input} />
    </div>
  );
}

export function FormMessage({ text, tone = 'error' }: { text: string | null; tone?: 'error' | 'info' }) {
  return (
    <p className={`form-message form-message--${tone}`} role={tone === 'error' ? 'alert' : 'status'}>
      {text}
    </p>
  );
}

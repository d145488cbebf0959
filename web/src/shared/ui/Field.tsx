import { type InputHTMLAttributes, useId } from 'react';

/** A labelled text input: the label is always visible, never a placeholder alone. */
export function Field({
  label,
  className,
  ...input
}: { label: string } & InputHTMLAttributes<HTMLInputElement>) {
  const generated = useId();
  const id = input.id ?? generated;
  return (
    <div className={`field${className ? ` ${className}` : ''}`}>
      <label className="field-label" htmlFor={id}>
        {label}
      </label>
      <input className="input" {...input} id={id} />
    </div>
  );
}

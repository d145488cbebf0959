/** A form's one message line: an error (announced at once) or information. Empty, it takes no room. */
export function FormMessage({ text, tone = 'error' }: { text: string | null; tone?: 'error' | 'info' }) {
  return (
    <p className={`form-message form-message--${tone}`} role={tone === 'error' ? 'alert' : 'status'}>
      {text}
    </p>
  );
}

import type { Status } from './use-account-action.js';

/** The one live region where progress, success and failure messages appear. */
export function StatusLine({ status }: { status: Status | null }) {
  return (
    <p
      className={`settings-status settings-status--${status?.tone ?? 'idle'}`}
      role="status"
      aria-live="polite"
    >
      {status?.text ?? ''}
    </p>
  );
}

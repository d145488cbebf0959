/** docs/screens.md#users-page: success messages, shown for 2.5 s (the timer lives in useUsersDirectory). */
export function Snackbar({ text }: { text: string | null }) {
  return (
    <div className="toast-region" role="status" aria-live="polite">
      {text && <div className="toast users-snackbar">{text}</div>}
    </div>
  );
}

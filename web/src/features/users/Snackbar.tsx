/** docs/screens.md#users-page: success messages, shown for 2.5 s (the timer lives in useUsersDirectory). */
export function Snackbar({ text }: { text: string | null }) {
  return (
    <div className="users-snackbar-region" role="status" aria-live="polite">
      {text && <div className="users-snackbar">{text}</div>}
    </div>
  );
}

import { ChartLine, Pencil } from 'lucide-react';
import { memo, useState } from 'react';

/**
 * docs/screens.md#devices-page inline rename: "Device name", Enter saves, Escape cancels, Save / Cancel, an error line.
 * Memoised (its tile renders on every state message): give it a stable `onRename`.
 */
export const RenameField = memo(function RenameField({
  name,
  disabled,
  onRename,
  historyHref,
  shownName = name,
  canRename = true,
}: {
  /** docs/access.md: false where the viewer may not rename it (only the name shows). */
  canRename?: boolean;
  name: string;
  /** docs/rooms.md#display-name-within-a-room: what the heading shows; the full name is its title. */
  shownName?: string;
  disabled: boolean;
  onRename(name: string): Promise<unknown>;
  /** docs/history.md#device-history-page: the device's history, when it has a stable id. */
  historyHref?: string | undefined;
}) {
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState(name);
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  const start = () => {
    setDraft(name);
    setError(null);
    setEditing(true);
  };
  const cancel = () => {
    setEditing(false);
    setError(null);
  };
  const save = async () => {
    setSaving(true);
    try {
      await onRename(draft);
      setEditing(false);
      setError(null);
    } catch (failure) {
      setError((failure as Error).message);
    } finally {
      setSaving(false);
    }
  };

  if (!editing) {
    return (
      <div className="tile-name">
        <h3 title={shownName === name ? undefined : name}>{shownName}</h3>
        {canRename && (
          <button
            type="button"
            className="icon-button icon-button--bare"
            aria-label={`Rename ${name}`}
            onClick={start}
            disabled={disabled}
          >
            <Pencil size={14} />
          </button>
        )}
        {historyHref && (
          <a className="icon-button icon-button--bare" href={historyHref} aria-label={`History of ${name}`}>
            <ChartLine size={14} />
          </a>
        )}
      </div>
    );
  }
  return (
    <div className="tile-rename">
      <input
        className="input input--compact"
        aria-label="Device name"
        value={draft}
        // biome-ignore lint/a11y/noAutofocus: the field appears because the user asked to rename
        autoFocus
        onChange={(event) => setDraft(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === 'Enter') void save();
          if (event.key === 'Escape') cancel();
        }}
        disabled={saving}
      />
      <button
        type="button"
        className="button button--primary button--compact"
        onClick={() => void save()}
        disabled={saving}
      >
        Save
      </button>
      <button
        type="button"
        className="button button--secondary button--compact"
        onClick={cancel}
        disabled={saving}
      >
        Cancel
      </button>
      {error && (
        <p className="rename-error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
});

import { Star } from 'lucide-react';
import { memo, useEffect, useState } from 'react';
import { TILE_TEXTS } from '../devices.messages.js';

/**
 * docs/screens.md#devices-page inline rename: "Device name", Enter saves, Escape cancels, Save / Cancel, an error line.
 * The name wraps to two lines rather than being cut; "Rename {name}" is in the tile's menu, which
 * sets `editing`. Memoised (its tile renders on every state message): give it stable callbacks.
 */
export const RenameField = memo(function RenameField({
  name,
  onRename,
  editing,
  onDone,
  shownName = name,
  starred = false,
}: {
  name: string;
  /** docs/rooms.md#display-name-within-a-room: what the heading shows; the full name is its title. */
  shownName?: string;
  /** The device is a favourite: a star beside the name (the menu holds the button). */
  starred?: boolean;
  onRename(name: string): Promise<unknown>;
  /** The rename field is open (the menu's "Rename" opened it). */
  editing: boolean;
  /** The field closed: saved or cancelled. */
  onDone(): void;
}) {
  const [draft, setDraft] = useState(name);
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  // Each time it opens it starts from the current name.
  useEffect(() => {
    if (editing) {
      setDraft(name);
      setError(null);
    }
  }, [editing, name]);

  const cancel = () => {
    setError(null);
    onDone();
  };
  const save = async () => {
    setSaving(true);
    try {
      await onRename(draft);
      setError(null);
      onDone();
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
        {starred && (
          <span className="tile-starred" role="img" aria-label={TILE_TEXTS.favourite}>
            <Star size={14} fill="currentColor" aria-hidden="true" />
          </span>
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

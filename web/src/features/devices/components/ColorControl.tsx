import { useEffect, useState } from 'react';
import { colourOrDefault, normaliseColour } from '../model/colour.js';
import type { Control } from '../model/controls.js';

/**
 * docs/screens.md#devices-page colour picker: "Adjust color" opens it, a hex field, Cancel and Apply. A colour the
 * user picked is kept while the server holds no valid colour (docs/screens.md#device-tile).
 */
export function ColorControl({
  control,
  disabled,
  onApply,
}: {
  control: Control;
  disabled: boolean;
  onApply(hex: string): void;
}) {
  const server = control.value as string | null;
  const [picked, setPicked] = useState<string | null>(null);
  const [open, setOpen] = useState(false);
  const [draft, setDraft] = useState('');
  const current = server ?? picked ?? colourOrDefault(null);

  useEffect(() => {
    if (server) setPicked(null);
  }, [server]);

  const openPicker = () => {
    setDraft(current);
    setOpen(!open);
  };
  const valid = normaliseColour(draft);
  const apply = () => {
    if (!valid) return;
    setPicked(valid);
    setOpen(false);
    onApply(valid);
  };

  return (
    <div className="control control-color">
      <span className="control-label">{control.label}</span>
      <span className="swatch" style={{ background: current }} title={current} />
      <button
        type="button"
        className="button button--secondary button--compact"
        onClick={openPicker}
        disabled={disabled}
      >
        {open ? 'Close picker' : 'Adjust color'}
      </button>
      {open && (
        <div className="color-picker">
          <input
            type="color"
            aria-label={`${control.label} picker`}
            value={valid ?? current}
            onChange={(event) => setDraft(event.target.value.toUpperCase())}
            disabled={disabled}
          />
          <input
            className="input input--compact"
            type="text"
            aria-label={`${control.label} hex`}
            value={draft}
            maxLength={7}
            spellCheck={false}
            aria-invalid={!valid}
            onChange={(event) => setDraft(event.target.value)}
            onKeyDown={(event) => {
              if (event.key === 'Enter') apply();
            }}
            disabled={disabled}
          />
          <button
            type="button"
            className="button button--secondary button--compact"
            onClick={() => setOpen(false)}
          >
            Cancel
          </button>
          <button
            type="button"
            className="button button--primary button--compact"
            onClick={apply}
            disabled={disabled || !valid}
          >
            Apply
          </button>
        </div>
      )}
    </div>
  );
}

import { ACTION_WORDS, SOURCE_TEXTS } from '../devices.messages.js';
import type { Control } from '../model/controls.js';
import { humanise } from '../model/format.js';

/** The buttons a row shows; the rest wait in a "More…" select (docs/screens.md#the-tiles-menu: few tab stops). */
export const SHOWN_ACTIONS = 3;

/** Which actions come first: a vacuum's Start, Pause and Dock before its Stop, Spot clean and Locate. */
const ORDER = ['press', 'activate', 'start', 'pause', 'return_to_base', 'stop', 'clean_spot', 'locate'];
const rank = (value: unknown) => {
  const at = ORDER.indexOf(String(value).toLowerCase());
  return at === -1 ? ORDER.length : at;
};

export const actionWord = (value: unknown) =>
  ACTION_WORDS[String(value).toLowerCase()] ?? humanise(String(value));

/**
 * docs/screens.md#devices-of-other-sources: a write-only enum of actions (a button's press, a
 * vacuum's start, pause and dock) as buttons, each sending its action at once; a single action
 * (a button, a scene) is one button named after its entity. Beyond three, the rest in a select.
 */
export function ActionButtons({
  control,
  actions = control.options.map((option) => option.value),
  disabled,
  onSend,
}: {
  control: Control;
  /** The actions to offer (all of the control's by default). */
  actions?: unknown[];
  disabled: boolean;
  onSend(value: unknown): void;
}) {
  const ordered = [...actions].sort((a, b) => rank(a) - rank(b));
  const shown = ordered.slice(0, ordered.length > SHOWN_ACTIONS + 1 ? SHOWN_ACTIONS : ordered.length);
  const more = ordered.slice(shown.length);
  const single = control.options.length === 1 && !control.within;
  return (
    <div className="control control-actions">
      {!single && <span className="control-label visually-hidden">{control.label}</span>}
      <div className="action-buttons">
        {shown.map((action) => (
          <button
            key={String(action)}
            type="button"
            className="button button--secondary button--compact"
            disabled={disabled}
            onClick={() => onSend(action)}
          >
            {single ? control.label : actionWord(action)}
          </button>
        ))}
        {more.length > 0 && (
          <select
            className="select select--compact"
            aria-label={SOURCE_TEXTS.moreActions(control.label)}
            value=""
            disabled={disabled}
            onChange={(event) => {
              const action = more.find((candidate) => String(candidate) === event.target.value);
              if (action !== undefined) onSend(action);
            }}
          >
            <option value="">{SOURCE_TEXTS.more}</option>
            {more.map((action) => (
              <option key={String(action)} value={String(action)}>
                {actionWord(action)}
              </option>
            ))}
          </select>
        )}
      </div>
    </div>
  );
}

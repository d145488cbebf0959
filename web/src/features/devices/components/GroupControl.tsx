import { useId, useState } from 'react';
import { MESSAGES } from '../devices.messages.js';
import type { Control } from '../model/controls.js';
import { type Draft, draftProblem, draftReady, startDraft } from '../model/drafts.js';
import { CompositeFields, ListItems } from './FieldEditor.js';
import './group-control.css';

/**
 * A composite (fields sent together as one object) or a list (an item editor) as one control:
 * "Edit" opens its fields, Apply sends the whole value, Cancel drops the edits. Like the colour
 * picker, it stays closed until asked, so a tile stays short.
 */
export function GroupControl({
  control,
  disabled,
  onApply,
}: {
  control: Control;
  disabled: boolean;
  onApply(value: Draft): void;
}) {
  const [open, setOpen] = useState(false);
  // docs/screens.md#device-tile: local values last until the device's own value changes (other state does not count).
  const base = JSON.stringify(control.value ?? null);
  const [local, setLocal] = useState<{ base: string; value: Draft } | null>(null);
  const draft = local && local.base === base ? local.value : startDraft(control);
  const setDraft = (value: Draft) => setLocal({ base, value });
  const problem = draftProblem(control, draft);
  const fieldsId = useId();
  const hintId = useId();

  const close = () => {
    setOpen(false);
    setLocal(null);
  };
  const apply = () => {
    if (problem || !draftReady(control, draft)) return;
    close();
    onApply(draft);
  };
  const Editor = control.kind === 'list' ? ListItems : CompositeFields;

  return (
    <div className={`control control-${control.kind}`}>
      <span className="control-label">{control.label}</span>
      <button
        type="button"
        className="button button--secondary button--compact"
        aria-expanded={open}
        aria-controls={fieldsId}
        aria-label={`${open ? MESSAGES.closeGroup : MESSAGES.editGroup} ${control.label}`}
        disabled={disabled && !open}
        onClick={() => (open ? close() : setOpen(true))}
      >
        {open ? MESSAGES.closeGroup : MESSAGES.editGroup}
      </button>
      {open && (
        <fieldset id={fieldsId} className="control-group control-group-root" aria-describedby={hintId}>
          {/* Named for assistive technology; the row above already shows the label. */}
          <legend className="visually-hidden">{control.label}</legend>
          <Editor control={control} value={draft} disabled={disabled} onChange={setDraft} />
          <div className="control-actions">
            <p id={hintId} className="control-hint" aria-live="polite">
              {problem ?? ''}
            </p>
            <button type="button" className="button button--secondary button--compact" onClick={close}>
              {MESSAGES.cancel}
            </button>
            <button
              type="button"
              className="button button--primary button--compact"
              disabled={disabled || problem !== null || !draftReady(control, draft)}
              onClick={apply}
            >
              {MESSAGES.apply}
            </button>
          </div>
        </fieldset>
      )}
    </div>
  );
}

import { MAX_TEXT_LENGTH } from '@hearth/contracts';
import { MESSAGES } from '../devices.messages.js';
import type { Control } from '../model/controls.js';
import { type Draft, draftProblem, emptyItem, setField } from '../model/drafts.js';
import { formatNumber } from '../model/format.js';
import { SelectOptions, Switch } from './ControlView.js';

interface FieldProps {
  control: Control;
  value: Draft;
  disabled: boolean;
  onChange(value: Draft): void;
  /** Shown instead of the control's own label (list items are numbered). */
  label?: string;
  /** List items must hold a value; composite fields may stay unset. */
  required?: boolean;
}

const NO_VALUE = '—';

// Inputs are named by aria-label too: a label wrapping a select would also read out its value.

/**
 * One field of a composite or one item of a list: the tile's toggle, slider, number, select,
 * text and colour rules, but editing a draft that the group's Apply sends. Nested composites
 * are nested groups; a list is an item editor (add, remove, edit).
 */
export function FieldEditor(props: FieldProps) {
  const { control, value, disabled, onChange, required = false } = props;
  const label = props.label ?? control.label;
  const invalid = draftProblem({ ...control, label }, value, required) !== null;
  switch (control.kind) {
    case 'toggle':
      return (
        <div className="control control-toggle">
          <span className="control-label">{label}</span>
          <Switch checked={value === true} label={label} disabled={disabled} onChange={onChange} />
        </div>
      );
    case 'slider':
      return (
        <label className="control control-slider">
          <span className="control-label">{label}</span>
          <input
            aria-label={label}
            type="range"
            min={control.min}
            max={control.max}
            step={control.step}
            value={typeof value === 'number' ? value : control.min}
            disabled={disabled}
            onChange={(event) => onChange(Number(event.target.value))}
          />
          <output>{typeof value === 'number' ? formatNumber(value) : NO_VALUE}</output>
        </label>
      );
    case 'number':
      return (
        <label className="control control-number">
          <span className="control-label">{label}</span>
          <input
            className="input input--compact"
            aria-label={label}
            type="number"
            step={control.step}
            {...(Number.isFinite(control.min) ? { min: control.min } : {})}
            {...(Number.isFinite(control.max) ? { max: control.max } : {})}
            value={typeof value === 'number' ? value : ''}
            aria-invalid={invalid}
            disabled={disabled}
            onChange={(event) => {
              const number = event.target.valueAsNumber;
              onChange(Number.isFinite(number) ? number : undefined);
            }}
          />
        </label>
      );
    case 'select': {
      const selected = value === undefined ? '' : String(value);
      return (
        <label className="control control-select">
          <span className="control-label">{label}</span>
          <select
            className="select select--compact"
            aria-label={label}
            value={selected}
            aria-invalid={invalid}
            disabled={disabled}
            onChange={(event) =>
              onChange(control.options.find((option) => String(option.value) === event.target.value)?.value)
            }
          >
            <SelectOptions control={control} unset={selected === ''} />
          </select>
        </label>
      );
    }
    case 'text':
      return (
        <label className="control control-text">
          <span className="control-label">{label}</span>
          <input
            className="input input--compact"
            aria-label={label}
            type="text"
            value={typeof value === 'string' ? value : ''}
            aria-invalid={invalid}
            maxLength={MAX_TEXT_LENGTH}
            spellCheck={false}
            disabled={disabled}
            onChange={(event) => onChange(event.target.value === '' ? undefined : event.target.value)}
          />
        </label>
      );
    case 'color':
      return (
        <label className="control control-color">
          <span className="control-label">{label}</span>
          <input
            aria-label={label}
            type="color"
            value={typeof value === 'string' ? value : '#FFFFFF'}
            disabled={disabled}
            onChange={(event) => onChange(event.target.value.toUpperCase())}
          />
        </label>
      );
    case 'composite':
      return (
        <fieldset className="control-group">
          <legend>{label}</legend>
          <CompositeFields control={control} value={value} disabled={disabled} onChange={onChange} />
        </fieldset>
      );
    case 'list':
      return (
        <fieldset className="control-group">
          <legend>{label}</legend>
          <ListItems control={control} value={value} disabled={disabled} onChange={onChange} />
        </fieldset>
      );
  }
}

/** A composite's fields, each changing its own key of the composite's draft. */
export function CompositeFields({ control, value, disabled, onChange }: FieldProps) {
  const object = typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
  return (
    <>
      {(control.fields ?? []).map((field) => (
        <FieldEditor
          key={field.key}
          control={field}
          value={object[field.property]}
          disabled={disabled}
          onChange={(next) => onChange(setField(value, field, next))}
        />
      ))}
    </>
  );
}

/** A list's items: each edited with the item's control, removed, or a new one added. */
export function ListItems({ control, value, disabled, onChange }: FieldProps) {
  const item = control.item;
  if (!item) return null;
  const items = Array.isArray(value) ? value : [];
  const canAdd = control.maxItems === undefined || items.length < control.maxItems;
  const canRemove = control.minItems === undefined || items.length > control.minItems;
  const replace = (index: number, next: Draft) =>
    onChange(items.map((entry, i) => (i === index ? next : entry)));
  return (
    <>
      <ol className="control-items">
        {items.map((entry, index) => {
          const label = `${item.label} ${index + 1}`;
          return (
            // biome-ignore lint/suspicious/noArrayIndexKey: items have no identity but their place
            <li key={index}>
              <FieldEditor
                control={item}
                value={entry}
                label={label}
                required
                disabled={disabled}
                onChange={(next) => replace(index, next)}
              />
              <button
                type="button"
                className="button button--secondary button--compact"
                aria-label={`${MESSAGES.remove} ${label}`}
                disabled={disabled || !canRemove}
                onClick={() => onChange(items.filter((_, i) => i !== index))}
              >
                {MESSAGES.remove}
              </button>
            </li>
          );
        })}
      </ol>
      <button
        type="button"
        className="button button--secondary button--compact"
        aria-label={`${MESSAGES.add} ${item.label}`}
        disabled={disabled || !canAdd}
        onClick={() => onChange([...items, emptyItem(item)])}
      >
        {MESSAGES.add}
      </button>
    </>
  );
}

import { MAX_TEXT_LENGTH } from '@hearth/contracts';
import { useState } from 'react';
import type { Control } from '../model/controls.js';
import { formatNumber } from '../model/format.js';
import { ColorControl } from './ColorControl.js';
import { GroupControl } from './GroupControl.js';

interface ControlProps {
  control: Control;
  disabled: boolean;
  onSend(value: unknown): void;
}

export function Switch({
  checked,
  label,
  disabled,
  onChange,
  describedBy,
}: {
  checked: boolean;
  label: string;
  disabled: boolean;
  onChange(next: boolean): void;
  /** The id of what says why it is disabled ("View only"). */
  describedBy?: string | undefined;
}) {
  return (
    <button
      type="button"
      role="switch"
      aria-checked={checked}
      aria-label={label}
      aria-describedby={describedBy}
      className="switch switch--small"
      disabled={disabled}
      onClick={() => onChange(!checked)}
    >
      <span className="switch-thumb" />
    </button>
  );
}

function SliderControl({ control, disabled, onSend }: ControlProps) {
  const server = typeof control.value === 'number' ? control.value : control.min;
  // docs/screens.md#device-tile: a local value only lives until the device data changes.
  const [local, setLocal] = useState<{ base: number; value: number } | null>(null);
  const draft = local && local.base === server ? local.value : null;
  const setDraft = (value: number) => setLocal({ base: server, value });
  const value = draft ?? server;
  const commit = () => {
    if (draft !== null && draft !== server) onSend(draft);
  };
  return (
    <label className="control control-slider">
      <span className="control-label">{control.label}</span>
      <input
        type="range"
        min={control.min}
        max={control.max}
        step={control.step}
        value={value}
        disabled={disabled}
        onChange={(event) => setDraft(Number(event.target.value))}
        onPointerUp={commit}
        onKeyUp={commit}
        onBlur={commit}
      />
      <output>{formatNumber(value)}</output>
    </label>
  );
}

function NumberControl({ control, disabled, onSend }: ControlProps) {
  const server = typeof control.value === 'number' ? String(control.value) : '';
  const [local, setLocal] = useState<{ base: string; value: string } | null>(null);
  const draft = local && local.base === server ? local.value : null;
  const setDraft = (value: string) => setLocal({ base: server, value });
  const commit = () => {
    // docs/strings.md#validation-rules: an empty number input sends nothing; non-numbers are ignored.
    if (draft === null || draft.trim() === '' || draft === server) return;
    const number = Number(draft);
    if (Number.isFinite(number)) onSend(number);
  };
  return (
    <label className="control control-number">
      <span className="control-label">{control.label}</span>
      <input
        className="input input--compact"
        type="number"
        step={control.step}
        value={draft ?? server}
        disabled={disabled}
        onChange={(event) => setDraft(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === 'Enter') commit();
        }}
        onBlur={commit}
      />
    </label>
  );
}

/** Settable text: like a number input, sent on Enter or when the field is left, if changed. */
function TextControl({ control, disabled, onSend }: ControlProps) {
  const server = typeof control.value === 'string' ? control.value : '';
  const [local, setLocal] = useState<{ base: string; value: string } | null>(null);
  const draft = local && local.base === server ? local.value : null;
  const commit = () => {
    if (draft !== null && draft !== server) onSend(draft);
  };
  return (
    <label className="control control-text">
      <span className="control-label">{control.label}</span>
      <input
        className="input input--compact"
        type="text"
        value={draft ?? server}
        maxLength={MAX_TEXT_LENGTH}
        spellCheck={false}
        disabled={disabled}
        onChange={(event) => setLocal({ base: server, value: event.target.value })}
        onKeyDown={(event) => {
          if (event.key === 'Enter') commit();
        }}
        onBlur={commit}
      />
    </label>
  );
}

/** A select's options: "—" first while it has no value, then the control's options. */
export function SelectOptions({ control, unset }: { control: Control; unset: boolean }) {
  return (
    <>
      {unset && <option value="">—</option>}
      {control.options.map((option) => (
        <option key={String(option.value)} value={String(option.value)}>
          {option.label ?? String(option.value)}
        </option>
      ))}
    </>
  );
}

function SelectControl({ control, disabled, onSend }: ControlProps) {
  const value = control.value === null || control.value === undefined ? '' : String(control.value);
  return (
    <label className="control control-select">
      <span className="control-label">{control.label}</span>
      <select
        className="select select--compact"
        value={value}
        disabled={disabled}
        onChange={(event) => {
          const option = control.options.find((candidate) => String(candidate.value) === event.target.value);
          onSend(option ? option.value : event.target.value);
        }}
      >
        <SelectOptions control={control} unset={value === ''} />
      </select>
    </label>
  );
}

export function ControlView(props: ControlProps) {
  const { control, disabled, onSend } = props;
  switch (control.kind) {
    case 'toggle':
      return (
        <div className="control control-toggle">
          <span className="control-label">{control.label}</span>
          <Switch
            checked={control.value === true}
            label={control.label}
            disabled={disabled}
            onChange={onSend}
          />
        </div>
      );
    case 'slider':
      return <SliderControl {...props} />;
    case 'number':
      return <NumberControl {...props} />;
    case 'select':
      return <SelectControl {...props} />;
    case 'color':
      return <ColorControl control={control} disabled={disabled} onApply={onSend} />;
    case 'text':
      return <TextControl {...props} />;
    case 'composite':
    case 'list':
      return <GroupControl control={control} disabled={disabled} onApply={onSend} />;
  }
}

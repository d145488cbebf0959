import { MAX_TEXT_LENGTH } from '@hearth/contracts';
import { useEffect, useMemo, useRef, useState } from 'react';
import { COVER_TEXTS } from '../devices.messages.js';
import { coverPart } from '../model/commands.js';
import type { Control } from '../model/controls.js';
import { COVER_ACTIONS, coverOption } from '../model/cover.js';
import { formatNumber } from '../model/format.js';
import { sliderScale } from '../model/scales.js';
import { SendPacer } from '../model/send-pacer.js';
import { ActionButtons } from './ActionButtons.js';
import { AlarmControl } from './AlarmControl.js';
import { ColorControl } from './ColorControl.js';
import { GroupControl } from './GroupControl.js';
import { UpdateControl } from './UpdateControl.js';

interface ControlProps {
  control: Control;
  disabled: boolean;
  onSend(value: unknown): void;
  /** The device's name (an update's Install names it). */
  deviceName?: string;
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

/**
 * A slider in the device's terms (docs/screens.md#device-tile): brightness as 0–100 %, a colour
 * temperature in kelvin, others in their own unit; what goes to the device is its own scale. It
 * sends when released, at most every 250 ms while dragged, and 250 ms after the last arrow key.
 */
export function SliderControl({ control, disabled, onSend }: ControlProps) {
  const scale = useMemo(() => sliderScale(control), [control]);
  const server = typeof control.value === 'number' ? scale.shown(control.value) : scale.min;
  // docs/screens.md#device-tile: a local value lives until the device data changes, and while the
  // slider is held or its keys wait to be sent (an echo of a value sent mid-drag must not pull
  // the thumb back).
  const [local, setLocal] = useState<{ base: number; value: number; held: boolean } | null>(null);
  const draft = local && (local.held || local.base === server) ? local.value : null;
  const value = draft ?? server;
  const latest = useRef({ onSend, scale, server });
  latest.current = { onSend, scale, server };
  const pointer = useRef(false);
  // Held by the pointer: its own sends (every 250 ms) must not disable it under the finger and end the drag.
  const [holding, setHolding] = useState(false);
  const [pacer] = useState(
    () =>
      new SendPacer<number>((shown) => {
        const { onSend: send, scale: current, server: base } = latest.current;
        send(current.device(shown));
        // Sent: the draft now lasts until the device reports (unless the pointer still holds it).
        setLocal((held) => (held ? { ...held, base, held: pointer.current } : held));
      }),
  );
  useEffect(() => () => pacer.cancel(), [pacer]);
  // The device moved on: the value it was last sent may be sent again.
  const lastServer = useRef(server);
  if (lastServer.current !== server) {
    lastServer.current = server;
    pacer.reset();
  }
  const move = (next: number) => {
    setLocal({ base: server, value: next, held: true });
    if (pointer.current) pacer.drag(next);
    else pacer.key(next);
  };
  const settle = () => {
    pointer.current = false;
    setHolding(false);
    pacer.release();
    setLocal((current) => (current?.held ? { ...current, base: server, held: false } : current));
  };
  return (
    <label className="control control-slider">
      <span className="control-label">{control.label}</span>
      <input
        type="range"
        min={scale.min}
        max={scale.max}
        step={scale.step}
        value={value}
        aria-valuetext={`${formatNumber(value)}${scale.unit ? ` ${scale.unit}` : ''}`}
        disabled={disabled && !holding}
        onPointerDown={() => {
          pointer.current = true;
          setHolding(true);
        }}
        onChange={(event) => move(Number(event.target.value))}
        onPointerUp={settle}
        onPointerCancel={settle}
        onBlur={settle}
      />
      <output>
        {formatNumber(value)}
        {scale.unit && <span className="unit">{scale.unit}</span>}
      </output>
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
      {control.unit && <span className="unit">{control.unit}</span>}
    </label>
  );
}

/**
 * docs/screens.md#covers: Open, Stop and Close as buttons beside the position slider (Home
 * Assistant's and Apple Home's cover), not a dropdown of OPEN/CLOSE/STOP.
 */
function CoverControl({ control, disabled, onSend }: ControlProps) {
  const { actions, position, tilt } = control.parts ?? {};
  return (
    <div className="control control-cover">
      {actions && (
        <div className="cover-actions">
          {COVER_ACTIONS.map((action) => {
            const option = coverOption(actions, action);
            if (option === undefined) return null;
            return (
              <button
                key={action}
                type="button"
                className="button button--secondary button--compact"
                disabled={disabled}
                onClick={() => onSend(coverPart('actions', option))}
              >
                {COVER_TEXTS[action]}
              </button>
            );
          })}
        </div>
      )}
      {position && (
        <SliderControl
          control={position}
          disabled={disabled}
          onSend={(value) => onSend(coverPart('position', value))}
        />
      )}
      {tilt && (
        <SliderControl
          control={tilt}
          disabled={disabled}
          onSend={(value) => onSend(coverPart('tilt', value))}
        />
      )}
    </div>
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
    case 'cover':
      return <CoverControl {...props} />;
    case 'actions':
      return <ActionButtons control={control} disabled={disabled} onSend={onSend} />;
    case 'alarm':
      return <AlarmControl control={control} disabled={disabled} onSend={onSend} />;
    case 'update':
      return (
        <UpdateControl control={control} disabled={disabled} name={props.deviceName ?? ''} onSend={onSend} />
      );
  }
}

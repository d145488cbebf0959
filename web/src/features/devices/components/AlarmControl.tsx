import { useId, useState } from 'react';
import { SOURCE_TEXTS } from '../devices.messages.js';
import type { Control } from '../model/controls.js';
import { isObject } from '../model/controls.js';
import { humanise } from '../model/format.js';
import { ActionButtons } from './ActionButtons.js';

/** States in which the way out is Disarm (armed, or on its way to or from it, or sounding). */
const DISARMS = new Set([
  'armed_home',
  'armed_away',
  'armed_night',
  'armed_vacation',
  'armed_custom_bypass',
  'pending',
  'arming',
  'triggered',
]);

/**
 * docs/screens.md#devices-of-other-sources: an alarm panel reads its state ("Disarmed", "Armed
 * away", "Triggered"), with its arm modes while disarmed and "Disarm" otherwise, and a code field
 * when the panel takes one: the code goes with the action and the field is emptied.
 */
export function AlarmControl({
  control,
  disabled,
  onSend,
}: {
  control: Control;
  disabled: boolean;
  onSend(value: { action: string; code?: string }): void;
}) {
  const [code, setCode] = useState('');
  const codeId = useId();
  const actions = control.parts?.actions;
  const state =
    isObject(control.value) && typeof control.value.state === 'string' ? control.value.state : null;
  const offered = (actions?.options ?? [])
    .map((option) => option.value)
    .filter((action) =>
      state && DISARMS.has(state) ? action === 'disarm' : state === 'disarmed' ? action !== 'disarm' : true,
    );
  return (
    <div className={`control control-alarm alarm-${state ?? 'unknown'}`}>
      <span className="control-label">{control.label}</span>
      <span className="alarm-status" data-alarm={state ?? ''}>
        {state ? (SOURCE_TEXTS.alarm[state] ?? humanise(state)) : '—'}
      </span>
      {control.parts?.code && (
        <span className="alarm-code">
          <label className="visually-hidden" htmlFor={codeId}>
            {SOURCE_TEXTS.codeLabel(control.label)}
          </label>
          <input
            id={codeId}
            className="input input--compact"
            type="password"
            inputMode="numeric"
            autoComplete="off"
            placeholder={SOURCE_TEXTS.code}
            value={code}
            maxLength={32}
            disabled={disabled}
            onChange={(event) => setCode(event.target.value)}
          />
        </span>
      )}
      {actions && (
        <ActionButtons
          control={actions}
          actions={offered}
          disabled={disabled}
          onSend={(action) => {
            onSend({ action: String(action), ...(code ? { code } : {}) });
            setCode('');
          }}
        />
      )}
    </div>
  );
}

import { buildCommand, type DeviceCommand } from './commands.js';
import { type Control, isObject, isPrimaryToggle } from './controls.js';
import type { DeviceView } from './device.types.js';

/** docs/screens.md#locks: what a lock says it is. */
export type LockStatus = 'locked' | 'unlocked' | 'jammed' | 'locking' | 'unlocking' | 'open' | 'unknown';

export interface LockView {
  status: LockStatus;
  /** The control the lock's commands go through (left out of the tile's other controls). */
  control: Control;
  lock: DeviceCommand | null;
  unlock: DeviceCommand | null;
}

const STATUSES: readonly LockStatus[] = ['locked', 'unlocked', 'jammed', 'locking', 'unlocking', 'open'];

/** Home Assistant's and Zigbee2MQTT's words for a lock's state (`not_fully_locked` is jammed, as Home Assistant reads it). */
function statusOf(value: unknown): LockStatus | null {
  if (typeof value !== 'string') return null;
  const word = value.toLowerCase();
  if (word === 'not_fully_locked') return 'jammed';
  return (STATUSES as readonly string[]).includes(word) ? (word as LockStatus) : null;
}

const commandOption = (control: Control, action: string) =>
  control.fields
    ?.find((field) => field.property === 'command' && field.kind === 'select')
    ?.options.find((option) => String(option.value).toLowerCase() === action)?.value;

/**
 * docs/screens.md#locks: a device that is a lock shows Locked / Unlocked (or Jammed) with a Lock or
 * Unlock button, never a power switch: Zigbee2MQTT's lock `state` (LOCK / UNLOCK) with its
 * `lock_state`, or Home Assistant's lock (a composite of `state` and `command`). Null for
 * anything else.
 */
export function lockOf(device: Pick<DeviceView, 'type' | 'state'>, controls: Control[]): LockView | null {
  const toggle = controls.find(
    (control) => isPrimaryToggle(control) && (control.group === 'lock' || device.type === 'lock'),
  );
  if (toggle) {
    const reported = statusOf(device.state.lock_state);
    const status: LockStatus =
      reported === 'jammed'
        ? 'jammed'
        : toggle.value === true
          ? 'locked'
          : toggle.value === false
            ? 'unlocked'
            : (reported ?? 'unknown');
    return {
      status,
      control: toggle,
      lock: buildCommand(toggle, true),
      unlock: buildCommand(toggle, false),
    };
  }
  const composite = controls.find(
    (control) =>
      control.kind === 'composite' &&
      control.group === 'lock' &&
      commandOption(control, 'unlock') !== undefined,
  );
  if (!composite) return null;
  const value = device.state[composite.property];
  const status = statusOf(isObject(value) ? value.state : value) ?? 'unknown';
  const send = (action: string) => {
    const option = commandOption(composite, action);
    return option === undefined ? null : buildCommand(composite, { command: option });
  };
  return { status, control: composite, lock: send('lock'), unlock: send('unlock') };
}

import type { DeviceCommand } from './commands.js';
import { type Control, deviceControls, isObject, isPrimaryToggle, readToggle } from './controls.js';
import type { DeviceView, Json } from './device.types.js';

/**
 * docs/screens.md#device-tile: what the device's state must say for a command sent from the page
 * to count as done (the server's rule for several devices at once, docs/devicehub.md#commands-to-several-devices,
 * in the page's terms): `on` by the power switch's own values, a number within its step, an enum
 * ignoring case, anything else by being reported again. Each check takes a fresh state message.
 */
export type Check = (reported: Json) => boolean | null;

function checkOf(control: Control, value: unknown): Check {
  const { property } = control;
  return (reported) => {
    if (!(property in reported)) return null;
    const got = reported[property];
    switch (control.kind) {
      case 'toggle':
        return readToggle(control, got) === (readToggle(control, value) ?? Boolean(value));
      case 'slider':
      case 'number':
        return typeof got === 'number' && typeof value === 'number'
          ? Math.abs(got - value) <= Math.max(control.step, 1)
          : got === value;
      case 'select':
        return String(got).toLowerCase() === String(value).toLowerCase();
      default:
        return true;
    }
  };
}

/** The checks of `command` on `device`; empty when nothing in it can be told from the state. */
export function commandChecks(device: DeviceView, command: DeviceCommand): Check[] {
  const controls = deviceControls(device).flatMap((control) =>
    control.kind === 'cover' && control.parts && !control.composite
      ? [control.parts.actions, control.parts.position].filter((part): part is Control => part !== undefined)
      : [control],
  );
  const checks: Check[] = [];
  const taken = new Set<string>();
  for (const [key, value] of Object.entries(command.state)) {
    // Parts of a composite shown as controls of their own: each part by its control, inside the composite's value.
    const parts = controls.filter((control) => control.within?.property === key);
    if (parts.length > 0 && isObject(value)) {
      for (const [part, wanted] of Object.entries(value)) {
        const control = parts.find((candidate) => candidate.property === part);
        if (!control || control.kind === 'actions') continue;
        const check = checkOf(control, wanted);
        checks.push((reported) => {
          const inner = reported[key];
          return isObject(inner) && part in inner ? check(inner) : null;
        });
      }
      continue;
    }
    const control =
      key === 'on'
        ? (controls.find((c) => c.inputId === command.input.id && isPrimaryToggle(c)) ??
          controls.find(isPrimaryToggle))
        : controls.find((c) => c.property === key);
    if (!control || taken.has(control.property)) continue;
    // A cover's action (OPEN, STOP) ends as a state of its own (closing, stopped): any report will do.
    const check =
      control.kind === 'select' && control.group === 'cover' ? () => true : checkOf(control, value);
    taken.add(control.property);
    checks.push((reported) => (control.property in reported ? check(reported) : null));
  }
  return checks;
}

/** Follows one command: done once each check has been met by some report after it. */
export class CommandConfirmation {
  private open: Check[];
  private heard = false;

  constructor(checks: Check[]) {
    this.open = [...checks];
  }

  report(state: Json): boolean {
    this.heard = true;
    this.open = this.open.filter((check) => check(state) !== true);
    return this.done;
  }

  get done(): boolean {
    return this.heard && this.open.length === 0;
  }
}

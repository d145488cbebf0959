import { normaliseColour } from './colour.js';
import { type Control, isObject } from './controls.js';
import type { Json } from './device.types.js';

/** docs/api.md#devices command body (REST); the stream sends `{device_id, state}` with the same state. */
export interface DeviceCommand {
  input: { id: string; value: unknown };
  state: Json;
}

const isPowerProperty = (property: string) => ['state', 'on'].includes(property.toLowerCase());

/**
 * docs/api.md#devices command building. Every command carries the changed property in `state` too, so
 * the stream's `{device_id, state}` form is complete; the power state travels as `on`.
 * Returns null when the value cannot be sent (docs/strings.md#validation-rules: numbers that are not numbers are ignored).
 */
export function buildCommand(control: Control, value: unknown): DeviceCommand | null {
  if (control.within) return partCommand(control, value);
  const { inputId: id, property } = control;
  switch (control.kind) {
    case 'toggle': {
      const on = Boolean(value);
      return { input: { id, value: on }, state: isPowerProperty(property) ? { on } : { [property]: on } };
    }
    case 'slider':
    case 'number': {
      const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
      if (typeof number !== 'number' || !Number.isFinite(number)) return null;
      const state: Json = { [property]: number };
      if (control.kind === 'slider' && property.toLowerCase().includes('brightness')) state.on = number > 0;
      return { input: { id, value: number }, state };
    }
    // A button's press, a vacuum's start: the action's own value, like a select's.
    case 'actions':
    case 'select': {
      const state: Json = { [property]: value };
      if (property.toLowerCase().includes('effect')) state.on = true;
      return { input: { id, value }, state };
    }
    case 'color': {
      const hex = normaliseColour(value);
      if (!hex) return null;
      return { input: { id, value: hex }, state: { [property]: hex, on: true } };
    }
    case 'text':
      return typeof value === 'string' ? { input: { id, value }, state: { [property]: value } } : null;
    // The whole object (or list) at once, as Zigbee2MQTT takes it: {warning: {mode, level, …}}.
    case 'composite':
      return isObject(value) && Object.keys(value).length > 0
        ? { input: { id, value }, state: { [property]: value } }
        : null;
    case 'list':
      return Array.isArray(value) ? { input: { id, value }, state: { [property]: value } } : null;
    // One of a cover's parts: its action (Open, Stop, Close) or its position.
    case 'cover': {
      const sent = isObject(value) ? value : {};
      const part =
        sent.part === 'position'
          ? control.parts?.position
          : sent.part === 'tilt'
            ? control.parts?.tilt
            : control.parts?.actions;
      if (!part) return null;
      if (!control.composite) return buildCommand(part, sent.value);
      const inner = { [part.property]: sent.value };
      return { input: { id, value: inner }, state: { [property]: inner } };
    }
    // An alarm panel's arm or disarm with its code: `{command, code?}` inside the panel's object.
    case 'alarm': {
      const sent = isObject(value) ? value : {};
      if (typeof sent.action !== 'string') return null;
      const inner: Json = { command: sent.action };
      if (typeof sent.code === 'string' && sent.code !== '') inner.code = sent.code;
      return { input: { id, value: inner }, state: { [property]: inner } };
    }
    // An update's Install.
    case 'update': {
      if (typeof value !== 'string') return null;
      const inner = { command: value };
      return { input: { id, value: inner }, state: { [property]: inner } };
    }
  }
}

/**
 * A part of a composite shown as a control of its own (model/entity-controls.ts): the part's own
 * command inside the composite's object, its `on` as the composite's `state` when it has one
 * (a brightness slider turns a light on or off, a colour or an effect turns it on).
 */
function partCommand(control: Control, value: unknown): DeviceCommand | null {
  const { within, ...part } = control;
  if (!within) return null;
  const command = buildCommand(part, value);
  if (!command) return null;
  const inner: Json = {};
  for (const [key, sent] of Object.entries(command.state)) {
    if (key !== 'on') inner[key] = sent;
    else if (within.power) inner.state = sent;
  }
  return { input: { id: within.inputId, value: inner }, state: { [within.property]: inner } };
}

/** What a cover control's parts send (buildCommand of a `cover` control). */
export const coverPart = (part: 'actions' | 'position' | 'tilt', value: unknown) => ({ part, value });

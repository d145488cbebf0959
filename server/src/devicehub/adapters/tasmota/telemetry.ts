import { isObject, type JsonObject } from '../../../shared/json.js';
import {
  EFFECTS,
  LIGHT,
  type LightPart,
  PUSH_ON_MODES,
  type ShutterPart,
  type SwitchPart,
  type TasmotaModel,
} from './model.js';

/**
 * What a Tasmota message says about a device (docs/devicehub.md#tasmota-mapping): `tele/STATE`,
 * `stat/RESULT`, `tele/SENSOR`, `stat/STATUS10`, `stat/POWER<n>` and `tele/LWT` decoded into the
 * values of its parts' properties, merged with what they were. Pure.
 */

export interface Decoded {
  /** The properties whose value changed, with their new values (a composite whole). */
  state: Record<string, unknown>;
  /** `tele/LWT`: the device's availability. */
  online?: boolean;
  /** Push-on switches that turned on: they turn off again a second later. */
  pushed?: string[];
  /** Whether the message was JSON Hearth could read (false: malformed, for a warning). */
  malformed?: boolean;
}

/** A message on one of the device's topics: `stat` or `tele`, and the command after the full topic. */
export interface Channel {
  prefix: 'stat' | 'tele';
  command: string;
}

const same = (a: unknown, b: unknown) => a === b || JSON.stringify(a) === JSON.stringify(b);

function parseJson(text: string): JsonObject | undefined {
  const first = text.trimStart()[0];
  if (first !== '{') return undefined;
  try {
    const parsed = JSON.parse(text);
    return isObject(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

const numberOf = (value: unknown): number | undefined => {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value)))
    return Number(value);
  return undefined;
};

/** `POWER<n>`, or `POWER` for the first relay (a device with one relay says only that). */
function powerOf(message: JsonObject, index: number): unknown {
  const own = message[`POWER${index + 1}`];
  if (own !== undefined) return own;
  return index === 0 ? message.POWER : undefined;
}

function onOff(model: TasmotaModel, text: unknown): boolean | undefined {
  if (text === model.config.stateTexts[1]) return true;
  if (text === model.config.stateTexts[0]) return false;
  return undefined;
}

/** The keys a light's state may come under. */
const LIGHT_KEYS = ['CT', 'HSBColor', 'Scheme', 'White'];

function decodeLight(
  part: LightPart,
  model: TasmotaModel,
  message: JsonObject,
  current: unknown,
): JsonObject | undefined {
  if (
    powerOf(message, part.index) === undefined &&
    message[part.dimmerState] === undefined &&
    !LIGHT_KEYS.some((key) => key in message)
  )
    return undefined;
  const next: JsonObject = isObject(current) ? { ...current } : {};
  const power = onOff(model, powerOf(message, part.index));
  if (power !== undefined) next.state = power;
  const type = part.lightType;
  if (type === LIGHT.none) {
    next.color_mode = 'onoff';
    return next;
  }
  const brightness = numberOf(message[part.dimmerState]);
  if (brightness !== undefined) next.brightness = brightness;
  if (type === LIGHT.dimmer) next.color_mode = 'brightness';
  if (type === LIGHT.coldWarm || type === LIGHT.rgbcw) {
    const ct = numberOf(message.CT);
    if (ct !== undefined) next.color_temp = ct;
  }
  if (type === LIGHT.coldWarm) next.color_mode = 'color_temp';
  if (type >= LIGHT.rgb) {
    const hsb = typeof message.HSBColor === 'string' ? message.HSBColor.split(',').map(Number) : undefined;
    if (hsb && hsb.length === 3 && hsb.every(Number.isFinite)) {
      next.color = { hue: hsb[0], saturation: hsb[1] };
      next.color_mode = 'hs';
    }
    const scheme = numberOf(message.Scheme);
    if (scheme !== undefined) next.effect = EFFECTS[scheme] ?? `Scheme ${scheme}`;
    const white = numberOf(message.White);
    if (white !== undefined) {
      if (type === LIGHT.rgbw) {
        next.white = white;
        if (white > 0) next.color_mode = 'white';
      } else if (type === LIGHT.rgbcw && white > 0) {
        // The white channels are lit: the light shows a colour temperature, not a colour.
        next.color = null;
        next.color_mode = 'color_temp';
      }
    }
    if (type === LIGHT.rgb && next.color_mode === undefined) next.color_mode = 'hs';
  }
  return next;
}

function decodeShutter(part: ShutterPart, message: JsonObject, current: unknown): JsonObject | undefined {
  const shutter = message[`Shutter${part.index + 1}`];
  if (!isObject(shutter)) return undefined;
  const next: JsonObject = isObject(current) ? { ...current } : {};
  let direction = numberOf(shutter.Direction);
  let position = numberOf(shutter.Position);
  if (direction === undefined && position === undefined && shutter.Tilt === undefined) return undefined;
  if (part.inverted) {
    if (direction !== undefined) direction = -direction;
    if (position !== undefined) position = 100 - position;
  }
  if (position !== undefined) next.position = Math.max(0, Math.min(100, position));
  const tilt = numberOf(shutter.Tilt);
  if (tilt !== undefined && part.tilt)
    next.tilt = Math.round(((tilt - part.tilt.min) * 100) / (part.tilt.max - part.tilt.min));
  if (direction === 1) next.state = 'opening';
  else if (direction === -1) next.state = 'closing';
  else if (direction === 0 || position !== undefined)
    next.state = next.position === 0 ? 'closed' : next.position === undefined ? 'stopped' : 'open';
  return next;
}

/** A switch's state in `tele/SENSOR` or `StatusSNS` (`"Switch1": "ON"`); push-on switches ignore it. */
function switchState(part: SwitchPart, model: TasmotaModel, sensors: JsonObject): boolean | undefined {
  if (PUSH_ON_MODES.has(part.mode)) return undefined;
  const value = sensors[part.key];
  return typeof value === 'string' ? onOff(model, value) : undefined;
}

/** The value at a sensor's path; a list announced where the device now sends one value gives it as item 0. */
function sensorValue(sensors: JsonObject, path: (string | number)[]): unknown {
  let node: unknown = sensors;
  for (let i = 0; i < path.length; i++) {
    const key = path[i] as string | number;
    const last = i === path.length - 1;
    if (Array.isArray(node)) {
      if (typeof key !== 'number') return undefined;
      node = node[key];
    } else if (isObject(node)) {
      node = node[String(key)];
    } else if (last && key === 0) {
      return node;
    } else return undefined;
    if (node === undefined) return undefined;
  }
  return Array.isArray(node) || isObject(node) ? undefined : node;
}

/** Whether Hearth reads this topic of a device (others, e.g. `tele/…/INFO1` or echoes, are left alone). */
export function reads({ prefix, command }: Channel): boolean {
  if (prefix === 'tele') return command === 'LWT' || command === 'STATE' || command === 'SENSOR';
  return (
    command === 'RESULT' || command === 'STATUS10' || command === 'STATUS11' || /^POWER\d*$/i.test(command)
  );
}

/** Decodes one message on a device's `stat/` or `tele/` topic against its current values. */
export function decodeMessage(
  model: TasmotaModel,
  channel: Channel,
  payload: string,
  values: Readonly<Record<string, unknown>>,
): Decoded {
  const state: Record<string, unknown> = {};
  const set = (property: string, value: unknown) => {
    if (value !== undefined && !same(values[property], value)) state[property] = value;
  };
  const { prefix, command } = channel;
  if (prefix === 'tele' && command === 'LWT') {
    if (payload === model.config.online) return { state, online: true };
    if (payload === model.config.offline) return { state, online: false };
    return { state };
  }
  // stat/POWER, stat/POWER<n>: the relay's state as plain text.
  const plainPower = prefix === 'stat' ? /^POWER(\d*)$/i.exec(command) : null;
  if (plainPower) {
    const index = plainPower[1] ? Number(plainPower[1]) - 1 : 0;
    const message = { [`POWER${index + 1}`]: payload.trim() };
    for (const part of model.parts) {
      if ((part.kind === 'relay' || part.kind === 'light') && part.index === index) {
        const on = onOff(model, message[`POWER${index + 1}`]);
        if (on === undefined) continue;
        if (part.kind === 'relay' && !part.asLight) set(part.property, on);
        else {
          const current = values[part.property];
          set(part.property, { ...(isObject(current) ? current : {}), state: on });
        }
      }
    }
    return { state };
  }
  const known =
    (prefix === 'tele' && (command === 'STATE' || command === 'SENSOR')) ||
    (prefix === 'stat' && (command === 'RESULT' || command === 'STATUS10' || command === 'STATUS11'));
  if (!known) return { state };
  const parsed = parseJson(payload);
  if (!parsed) return { state, malformed: payload.trim() !== '' };
  const pushed: string[] = [];
  // STATE-like: tele/STATE, stat/RESULT, and STATUS 11's StatusSTS.
  const stateLike =
    command === 'STATE' || command === 'RESULT'
      ? parsed
      : command === 'STATUS11' && isObject(parsed.StatusSTS)
        ? parsed.StatusSTS
        : undefined;
  // SENSOR-like: tele/SENSOR, and STATUS 10's StatusSNS (shutters also report in stat/RESULT).
  const sensorLike =
    command === 'SENSOR'
      ? parsed
      : command === 'STATUS10' && isObject(parsed.StatusSNS)
        ? parsed.StatusSNS
        : undefined;
  for (const part of model.parts) {
    switch (part.kind) {
      case 'relay': {
        if (!stateLike) break;
        const on = onOff(model, powerOf(stateLike, part.index));
        if (on === undefined) break;
        if (part.asLight) {
          const current = values[part.property];
          set(part.property, { ...(isObject(current) ? current : {}), state: on, color_mode: 'onoff' });
        } else set(part.property, on);
        break;
      }
      case 'light':
        if (stateLike) set(part.property, decodeLight(part, model, stateLike, values[part.property]));
        break;
      case 'fan': {
        const speed = stateLike ? numberOf(stateLike.FanSpeed) : undefined;
        if (speed === undefined) break;
        set(part.property, {
          state: speed > 0,
          percentage: Math.floor((Math.min(3, Math.max(0, speed)) * 100) / 3),
        });
        break;
      }
      case 'shutter': {
        const source = command === 'RESULT' ? parsed : sensorLike;
        if (!source) break;
        set(part.property, decodeShutter(part, source, values[part.property]));
        break;
      }
      case 'switch': {
        if (sensorLike) set(part.property, switchState(part, model, sensorLike));
        if (command !== 'RESULT') break;
        const result = parsed[part.key];
        if (!isObject(result) || typeof result.Action !== 'string') break;
        const on = onOff(model, result.Action);
        if (on !== undefined) {
          set(part.property, on);
          if (on && PUSH_ON_MODES.has(part.mode)) pushed.push(part.property);
        } else state.action = `switch_${part.index + 1}_${actionName(result.Action)}`;
        break;
      }
      case 'sensor': {
        if (!sensorLike) break;
        const raw = sensorValue(sensorLike, part.path);
        if (raw === undefined) break;
        set(part.property, part.numeric ? (numberOf(raw) ?? (raw === null ? null : undefined)) : raw);
        break;
      }
      case 'wifi': {
        const wifi = stateLike?.Wifi;
        if (isObject(wifi)) set(part.property, numberOf(wifi[part.key]));
        break;
      }
    }
  }
  if (command === 'RESULT')
    for (const n of model.buttons) {
      const result = parsed[`Button${n}`];
      if (isObject(result) && typeof result.Action === 'string')
        state.action = `button_${n}_${actionName(result.Action)}`;
    }
  return { state, ...(pushed.length > 0 ? { pushed } : {}) };
}

/** An action as Hearth reports it: `SINGLE` → `single`, `INC_DEC` → `inc_dec` (at most 32 characters). */
const actionName = (action: string) =>
  action
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .slice(0, 32);

/** What Hearth asks a device for when it comes online: its state and its sensors. */
export function pollsOf(cmnd: string): { topic: string; payload: string }[] {
  return [
    { topic: `${cmnd}STATE`, payload: '' },
    { topic: `${cmnd}STATUS`, payload: '10' },
  ];
}

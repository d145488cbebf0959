import { HttpError } from '../../../http/errors.js';
import { isObject, type JsonObject } from '../../../shared/json.js';
import { DevicehubMessages } from '../../devicehub.errors.js';
import { hexToRgb, rgbToHs } from '../homeassistant/colours.js';
import { EFFECTS, type LightPart, type Part, type ShutterPart, type TasmotaModel } from './model.js';

/**
 * Commands as Tasmota takes them (docs/devicehub.md#tasmota-mapping): `<cmnd>Power1 ON` for a
 * relay, one `<cmnd>Backlog` of `NoDelay;Dimmer 75;…` for a light (as Home Assistant sends them),
 * `ShutterOpen1`/`ShutterPosition1 40`/…, `FanSpeed 2`. Pure: values are already checked against
 * the part's capability.
 */

export interface Publication {
  topic: string;
  payload: string;
}

const refused = (path: string, reason: string) =>
  new HttpError(400, DevicehubMessages.invalidValue(path, reason));

const FAN_SPEEDS = 3;

/** Hue and saturation (0–360, 0–100) of a colour value as the capability's check gives it. */
function hueSaturation(colour: unknown, path: string): { hue: number; saturation: number } {
  const value = isObject(colour) ? colour : {};
  if (typeof value.hex === 'string') return rgbToHs(hexToRgb(value.hex));
  const hue = value.hue ?? value.h;
  const saturation = value.saturation ?? value.s;
  if (typeof hue === 'number' && typeof saturation === 'number') return { hue, saturation };
  throw refused(path, 'must be a colour (#RRGGBB)');
}

/**
 * Tasmota's fade speed (half-seconds for a full change, 1–40) for a transition of `seconds` from
 * the light's brightness now to the one asked for, as Home Assistant works it out.
 */
function fadeSpeed(
  part: LightPart,
  seconds: number,
  on: boolean,
  asked: unknown,
  current: JsonObject,
): number {
  if (part.fadeFixedDuration) return Math.min(40, Math.max(1, Math.round(seconds * 2)));
  const before = typeof current.brightness === 'number' ? current.brightness : 100;
  const now = current.state === true ? before : 0;
  const next = typeof asked === 'number' ? asked : on ? before : 0;
  const delta = Math.abs(next - now) / 100;
  const speed = delta === 0 ? 0 : Math.round((seconds * 2) / delta);
  return Math.min(40, Math.max(1, speed));
}

function lightCommand(
  model: TasmotaModel,
  part: LightPart,
  parts: JsonObject,
  current: JsonObject,
  cmnd: string,
): Publication[] {
  const [offText, onText] = model.config.stateTexts as [string, string];
  const on = parts.state !== false;
  const power = `Power${part.index + 1}`;
  const commands: [string, string | number][] = [];
  const transition = typeof parts.transition === 'number' ? parts.transition : undefined;
  if (part.transition && transition !== undefined) {
    commands.push(['Fade2', transition > 0 ? 1 : 0]);
    if (transition > 0) commands.push(['Speed2', fadeSpeed(part, transition, on, parts.brightness, current)]);
  }
  if (!on) commands.push([power, offText]);
  else {
    const brightness = typeof parts.brightness === 'number' ? Math.round(parts.brightness) : undefined;
    commands.push(brightness === undefined ? [power, onText] : [part.dimmerCommand, brightness]);
    if (parts.color !== undefined) {
      const { hue, saturation } = hueSaturation(parts.color, `${part.property}.color`);
      commands.push(['HsbColor1', Math.round(hue)], ['HsbColor2', Math.round(saturation)]);
    }
    if (typeof parts.color_temp === 'number') commands.push(['CT', Math.round(parts.color_temp)]);
    if (typeof parts.effect === 'string') commands.push(['Scheme', EFFECTS.indexOf(parts.effect)]);
    if (typeof parts.white === 'number') commands.push(['White', Math.round(parts.white)]);
    if (part.notPowerLinked && brightness !== undefined) commands.push([power, onText]);
  }
  return [{ topic: `${cmnd}Backlog`, payload: backlog(commands) }];
}

/** Several commands as one `Backlog`, each run at once (`NoDelay`). */
export const backlog = (commands: [string, string | number][]) =>
  commands.map(([command, argument]) => `NoDelay;${command} ${argument}`).join(';');

function shutterCommand(part: ShutterPart, parts: JsonObject, cmnd: string): Publication[] {
  const n = part.index + 1;
  const publications: Publication[] = [];
  if (typeof parts.command === 'string') {
    const command = { open: 'ShutterOpen', close: 'ShutterClose', stop: 'ShutterStop' }[parts.command];
    if (command) publications.push({ topic: `${cmnd}${command}${n}`, payload: '' });
  }
  if (typeof parts.position === 'number') {
    const position = Math.round(part.inverted ? 100 - parts.position : parts.position);
    publications.push({ topic: `${cmnd}ShutterPosition${n}`, payload: String(position) });
  }
  if (typeof parts.tilt === 'number' && part.tilt) {
    const { min, max } = part.tilt;
    publications.push({
      topic: `${cmnd}ShutterTilt${n}`,
      payload: String(Math.round(min + (parts.tilt * (max - min)) / 100)),
    });
  }
  return publications;
}

/**
 * What to publish for one part: `value` is its capability's value, checked (a composite's an
 * object of some of its features); `current` its value now (a fade's speed depends on it).
 */
export function commandFor(
  model: TasmotaModel,
  part: Part,
  value: unknown,
  current: unknown,
  cmnd: string,
): Publication[] {
  const [offText, onText] = model.config.stateTexts as [string, string];
  const parts = isObject(value) ? value : {};
  switch (part.kind) {
    case 'relay': {
      const on = part.asLight ? parts.state !== false : value === true;
      return [{ topic: `${cmnd}Power${part.index + 1}`, payload: on ? onText : offText }];
    }
    case 'light':
      return lightCommand(model, part, parts, isObject(current) ? current : {}, cmnd);
    case 'shutter':
      return shutterCommand(part, parts, cmnd);
    case 'fan': {
      // Home Assistant's percentage_to_ranged_value, rounded up; turned on without one: medium.
      const speed =
        typeof parts.percentage === 'number'
          ? Math.min(FAN_SPEEDS, Math.ceil((parts.percentage * FAN_SPEEDS) / 100))
          : parts.state === false
            ? 0
            : 2;
      return [{ topic: `${cmnd}FanSpeed`, payload: String(speed) }];
    }
    default:
      return [];
  }
}

import { type Capability, MAX_TEXT_LENGTH } from '@hearth/contracts';
import { HttpError } from '../../../http/errors.js';
import { isObject } from '../../../shared/json.js';
import { readBinary } from '../../binary.js';
import { parseColour } from '../../colour.js';
import { DevicehubMessages } from '../../devicehub.errors.js';

const invalid = () => new HttpError(400, DevicehubMessages.invalidCommand);
const missing = () => new HttpError(400, DevicehubMessages.missingCommand);
/** A value the device can't take: which one and why, e.g. `warning.level must be one of low, high`. */
const refused = (path: string, reason: string) =>
  new HttpError(400, DevicehubMessages.invalidValue(path, reason));

const sameValue = (a: unknown, b: unknown) =>
  a === b || (a !== undefined && JSON.stringify(a) === JSON.stringify(b));

const listed = (values: unknown[]) => {
  const shown = values.slice(0, 12).map(String).join(', ');
  return values.length > 12 ? `${shown}, …` : shown;
};

/** The numeric presets of an expose (e.g. a level_config's `on_level` takes "previous"). */
const presetValues = (meta: Record<string, unknown>): unknown[] =>
  Array.isArray(meta.presets)
    ? meta.presets.map((preset) => (isObject(preset) ? preset.value : undefined))
    : [];

function convertNumber(capability: Capability, value: unknown, path: string): unknown {
  const meta = capability.metadata ?? {};
  if (value !== undefined && presetValues(meta).some((preset) => sameValue(preset, value))) return value;
  const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  if (typeof number !== 'number' || !Number.isFinite(number)) throw refused(path, 'must be a number');
  const { min, max } = capability.range ?? {};
  if ((min !== undefined && number < min) || (max !== undefined && number > max)) {
    const bounds =
      min !== undefined && max !== undefined
        ? `between ${min} and ${max}`
        : min !== undefined
          ? `at least ${min}`
          : `at most ${max}`;
    throw refused(path, `must be ${bounds}`);
  }
  return number;
}

function convertComposite(capability: Capability, value: unknown, path: string): Record<string, unknown> {
  if (!isObject(value)) throw refused(path, 'must be an object of its fields');
  const settable = (capability.features ?? []).filter((feature) => !feature.access.readOnly);
  const converted: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(value)) {
    const feature = settable.find((candidate) => candidate.property === key);
    if (!feature) throw refused(`${path}.${key}`, 'is not a settable field');
    converted[key] = convert(feature, field, `${path}.${key}`);
  }
  if (Object.keys(converted).length === 0) throw refused(path, 'has no fields');
  return converted;
}

function convertList(capability: Capability, value: unknown, path: string): unknown[] {
  const { item, length } = capability;
  if (!Array.isArray(value) || !item) throw refused(path, 'must be a list');
  if (length?.min !== undefined && value.length < length.min)
    throw refused(path, `must have at least ${length.min} items`);
  if (length?.max !== undefined && value.length > length.max)
    throw refused(path, `must have at most ${length.max} items`);
  return value.map((entry, index) => convert(item, entry, `${path}[${index}]`));
}

/**
 * One value in the form Zigbee2MQTT's `/set` expects for this capability; throws a 400 naming
 * the value (`path`) when the expose's type, range or values don't allow it.
 */
export function convert(capability: Capability, value: unknown, path: string): unknown {
  const meta = capability.metadata ?? {};
  switch (capability.kind) {
    case 'binary': {
      if (
        [meta.value_on, meta.value_off, meta.value_toggle].some((v) => v !== undefined && sameValue(v, value))
      )
        return value;
      const on = readBinary(value);
      if (on === undefined) throw refused(path, 'must be on or off');
      return on ? meta.value_on : meta.value_off;
    }
    case 'numeric':
      return convertNumber(capability, value, path);
    case 'enum': {
      const values = Array.isArray(meta.values) ? meta.values : (capability.enum ?? []);
      const match = values.find((v) => String(v) === String(value));
      if (match === undefined) throw refused(path, `must be one of ${listed(values)}`);
      return match;
    }
    case 'text':
      if (typeof value !== 'string') throw refused(path, 'must be text');
      if (value.length > MAX_TEXT_LENGTH)
        throw refused(path, `must be at most ${MAX_TEXT_LENGTH} characters`);
      return value;
    case 'composite': {
      if (!Array.isArray(meta.color_modes)) return convertComposite(capability, value, path);
      const hex = parseColour(value);
      if (hex) return { hex };
      // Also pass through an explicit colour-space value such as {x, y} or {hue, saturation}.
      if (isObject(value) && Object.values(value).every((v) => typeof v === 'number' && Number.isFinite(v))) {
        const keys = Object.keys(value);
        if (keys.length > 0 && keys.every((k) => ['x', 'y', 'hue', 'saturation', 'h', 's'].includes(k)))
          return value;
      }
      throw refused(path, 'must be a colour (#RRGGBB)');
    }
    case 'list':
      return convertList(capability, value, path);
    default:
      throw invalid();
  }
}

const writable = (capabilities: Capability[]) => capabilities.filter((c) => !c.access.readOnly);

const findWritable = (capabilities: Capability[], key: string) =>
  writable(capabilities).find((c) => c.id === key || c.property === key);

/** The on/off capability a `state.on` refers to: the input's endpoint's `state_<ep>`, else `state`. */
function powerCapability(capabilities: Capability[], endpoint: unknown): Capability | undefined {
  const binaries = writable(capabilities).filter((c) => c.kind === 'binary');
  if (typeof endpoint === 'string') {
    const own = binaries.find((c) => c.property === `state_${endpoint}`);
    if (own) return own;
  }
  return (
    binaries.find((c) => c.property === 'state') ??
    binaries.find((c) => c.property === 'on') ??
    // e.g. a fan's `fan_state`: the on/off feature of a specific expose.
    binaries.find((c) => c.type !== 'binary' && c.property.endsWith('state'))
  );
}

/** A command as it goes out: the `/set` payload, and what of the command it sends, in the command's terms. */
export interface SetCommand {
  payload: Record<string, unknown>;
  /** The input's value under its id, then each key of `state` the device takes (docs/activity.md#kinds records it). */
  sent: Record<string, unknown>;
}

/**
 * A REST command (`{input: {id, value}, state?: {on?, [property]?}}`, docs/api.md#devices) or a stream
 * command's `{state}` (7.3) as the payload of `<friendly_name>/set`, e.g. a brightness slider
 * `{brightness: 128, state: "ON"}`, using the device's own value_on/value_off.
 */
export function buildSetPayload(capabilities: Capability[], request: unknown): Record<string, unknown> {
  return buildSetCommand(capabilities, request).payload;
}

/** buildSetPayload, with what of the command it sends. */
export function buildSetCommand(capabilities: Capability[], request: unknown): SetCommand {
  if (request === undefined || request === null) throw missing();
  if (!isObject(request)) throw invalid();
  const { input, state } = request;
  if (input === undefined && state === undefined) throw missing();
  if ((input !== undefined && !isObject(input)) || (state !== undefined && !isObject(state))) throw invalid();

  const payload: Record<string, unknown> = {};
  const sent: Record<string, unknown> = {};
  let endpoint: unknown;
  if (input) {
    if (typeof input.id !== 'string' || !('value' in input)) throw invalid();
    const capability = findWritable(capabilities, input.id);
    if (!capability) throw invalid();
    payload[capability.property] = convert(capability, input.value, capability.property);
    sent[input.id] = input.value;
    endpoint = capability.metadata?.endpoint;
  }
  for (const [key, value] of Object.entries(state ?? {})) {
    if (key === 'on') {
      const power = powerCapability(capabilities, endpoint);
      if (!power) continue;
      if (!(power.property in payload)) {
        payload[power.property] = convert(power, value, power.property);
        sent.on = value;
      }
      continue;
    }
    const capability = findWritable(capabilities, key);
    // Keys the device can't take (read-only or unknown) are left out rather than sent.
    if (!capability || capability.property in payload) continue;
    payload[capability.property] = convert(capability, value, capability.property);
    sent[key] = value;
  }
  if (Object.keys(payload).length === 0) throw invalid();
  return { payload, sent };
}

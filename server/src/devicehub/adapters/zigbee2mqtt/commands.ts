import type { Capability } from '@hearth/contracts';
import { HttpError } from '../../../http/errors.js';
import { isObject } from '../../../shared/json.js';
import { readBinary } from '../../binary.js';
import { parseColour } from '../../colour.js';
import { DevicehubMessages } from '../../devicehub.errors.js';

const invalid = () => new HttpError(400, DevicehubMessages.invalidCommand);
const missing = () => new HttpError(400, DevicehubMessages.missingCommand);

const sameValue = (a: unknown, b: unknown) =>
  a === b || (a !== undefined && JSON.stringify(a) === JSON.stringify(b));

/** One value in the form Zigbee2MQTT's `/set` expects for this capability; throws when it can't be. */
function convert(capability: Capability, value: unknown): unknown {
  const meta = capability.metadata ?? {};
  switch (capability.kind) {
    case 'binary': {
      if (
        [meta.value_on, meta.value_off, meta.value_toggle].some((v) => v !== undefined && sameValue(v, value))
      )
        return value;
      const on = readBinary(value);
      if (on === undefined) throw invalid();
      return on ? meta.value_on : meta.value_off;
    }
    case 'numeric': {
      const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
      if (typeof number !== 'number' || !Number.isFinite(number)) throw invalid();
      const { min, max } = capability.range ?? {};
      return Math.min(max ?? Number.POSITIVE_INFINITY, Math.max(min ?? Number.NEGATIVE_INFINITY, number));
    }
    case 'enum': {
      const values = Array.isArray(meta.values) ? meta.values : (capability.enum ?? []);
      const match = values.find((v) => String(v) === String(value));
      if (match === undefined) throw invalid();
      return match;
    }
    case 'text':
      if (typeof value !== 'string' || value.length > 1024) throw invalid();
      return value;
    case 'composite': {
      if (Array.isArray(meta.color_modes)) {
        const hex = parseColour(value);
        if (hex) return { hex };
        // Also pass through an explicit colour-space value such as {x, y} or {hue, saturation}.
        if (
          isObject(value) &&
          Object.values(value).every((v) => typeof v === 'number' && Number.isFinite(v))
        ) {
          const keys = Object.keys(value);
          if (keys.length > 0 && keys.every((k) => ['x', 'y', 'hue', 'saturation', 'h', 's'].includes(k)))
            return value;
        }
        throw invalid();
      }
      if (!isObject(value)) throw invalid();
      return value;
    }
    case 'list':
      if (!Array.isArray(value)) throw invalid();
      return value;
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

/**
 * A REST command (`{input: {id, value}, state?: {on?, [property]?}}`, SPEC 7.2) or a stream
 * command's `{state}` (7.3) as the payload of `<friendly_name>/set`, e.g. a brightness slider
 * `{brightness: 128, state: "ON"}`, using the device's own value_on/value_off.
 */
export function buildSetPayload(capabilities: Capability[], request: unknown): Record<string, unknown> {
  if (request === undefined || request === null) throw missing();
  if (!isObject(request)) throw invalid();
  const { input, state } = request;
  if (input === undefined && state === undefined) throw missing();
  if ((input !== undefined && !isObject(input)) || (state !== undefined && !isObject(state))) throw invalid();

  const payload: Record<string, unknown> = {};
  let endpoint: unknown;
  if (input) {
    if (typeof input.id !== 'string' || !('value' in input)) throw invalid();
    const capability = findWritable(capabilities, input.id);
    if (!capability) throw invalid();
    payload[capability.property] = convert(capability, input.value);
    endpoint = capability.metadata?.endpoint;
  }
  for (const [key, value] of Object.entries(state ?? {})) {
    if (key === 'on') {
      const power = powerCapability(capabilities, endpoint);
      if (!power) continue;
      if (!(power.property in payload)) payload[power.property] = convert(power, value);
      continue;
    }
    const capability = findWritable(capabilities, key);
    // Keys the device can't take (read-only or unknown) are left out rather than sent.
    if (!capability || capability.property in payload) continue;
    payload[capability.property] = convert(capability, value);
  }
  if (Object.keys(payload).length === 0) throw invalid();
  return payload;
}

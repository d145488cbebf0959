import type { Capability, DeviceCommandRequest } from '@hearth/contracts';
import { HttpError } from '../../../http/errors.js';
import { isObject } from '../../../shared/json.js';
import { DevicehubMessages } from '../../devicehub.errors.js';
import { convert } from '../zigbee2mqtt/commands.js';

/**
 * A command request (docs/devicehub.md#commands: `{input?: {id, value}, state?: {on?, …}}`) as the
 * values it sets on a device's capabilities, each checked against its capability, and what of it
 * is sent (the input's value under its id, the `state` keys the device takes), for the activity
 * log. `on` sets the power capability: a binary's value, or a composite's `state` feature. Shared
 * by the Tasmota and Shelly adapters, whose devices are capabilities of their own parts.
 */
export interface Requested {
  /** Checked values by property (a composite's an object of some of its features). */
  values: Map<string, unknown>;
  sent: Record<string, unknown>;
}

export function requestedValues(
  capabilities: readonly Capability[],
  request: DeviceCommandRequest,
  power: Capability | undefined,
): Requested {
  if (!isObject(request)) throw new HttpError(400, DevicehubMessages.invalidCommand);
  const { input, state } = request as { input?: unknown; state?: unknown };
  if (input === undefined && state === undefined) throw new HttpError(400, DevicehubMessages.missingCommand);
  if ((input !== undefined && !isObject(input)) || (state !== undefined && !isObject(state)))
    throw new HttpError(400, DevicehubMessages.invalidCommand);
  const writable = (property: string) =>
    capabilities.find((c) => (c.property === property || c.id === property) && !c.access.readOnly);
  const raw = new Map<string, unknown>();
  const sent: Record<string, unknown> = {};
  if (input) {
    if (typeof input.id !== 'string' || !('value' in input))
      throw new HttpError(400, DevicehubMessages.invalidCommand);
    const capability = writable(input.id);
    if (!capability) throw new HttpError(400, DevicehubMessages.invalidCommand);
    raw.set(capability.property, input.value);
    sent[input.id] = input.value;
  }
  for (const [key, value] of Object.entries(state ?? {})) {
    if (key === 'on') {
      if (!power) continue;
      const existing = raw.get(power.property);
      if (power.kind === 'composite') {
        if (!isObject(existing) || !('state' in existing))
          raw.set(power.property, { ...(isObject(existing) ? existing : {}), state: value });
      } else if (!raw.has(power.property)) raw.set(power.property, value);
      sent.on = value;
      continue;
    }
    const capability = writable(key);
    // Keys the device can't take (read-only or unknown) are left out rather than sent.
    if (!capability || raw.has(capability.property)) continue;
    raw.set(capability.property, value);
    sent[key] = value;
  }
  if (raw.size === 0) throw new HttpError(400, DevicehubMessages.invalidCommand);
  const values = new Map<string, unknown>();
  for (const [property, value] of raw) {
    const capability = writable(property) as Capability;
    values.set(property, convert(capability, value, property));
  }
  return { values, sent };
}

import type { Capability, Device, DeviceState } from '@hearth/contracts';

/**
 * docs/automations.md#scenes: which keys of a command's `state` a device takes (its writable
 * capabilities by property or id, and `on` when it has a power switch), which it reports, and
 * what "save current as scene" captures.
 */

const writable = (capability: Capability) => capability.access.set && !capability.access.readOnly;
const isPower = (capability: Capability) =>
  capability.kind === 'binary' && /^(state|on)(_|$)/.test(capability.property) && writable(capability);

/** The keys a command's `state` may set on this device. */
export function writableKeys(device: Device): Set<string> {
  const keys = new Set<string>();
  for (const capability of device.capabilities) {
    if (!writable(capability)) continue;
    keys.add(capability.property);
    keys.add(capability.id);
  }
  if (device.capabilities.some(isPower)) keys.add('on');
  return keys;
}

/** The properties a device reports (what a trigger or condition may watch). */
export function readableKeys(device: Device): Set<string> {
  const keys = new Set<string>();
  for (const capability of device.capabilities) {
    keys.add(capability.property);
    keys.add(capability.id);
  }
  return keys;
}

/** The first key of `state` the device does not take, and why (unknown, or not writable). */
export function refusedKey(device: Device, state: DeviceState): { key: string; known: boolean } | undefined {
  const keys = writableKeys(device);
  const known = readableKeys(device);
  for (const key of Object.keys(state)) {
    if (!keys.has(key)) return { key, known: known.has(key) };
  }
  return undefined;
}

/**
 * The device's writable values now, as a command's `state`: the settings it reports (write-only
 * actions such as a light's `effect` are not settings), and of a light's colour only the mode it
 * is in.
 */
export function captureState(device: Device): DeviceState {
  const state: DeviceState = {};
  const mode = typeof device.state.color_mode === 'string' ? device.state.color_mode : undefined;
  for (const capability of device.capabilities) {
    if (!writable(capability) || capability.access.published === false) continue;
    const value = device.state[capability.property];
    if (value === undefined || value === null) continue;
    if (mode !== undefined && capability.property === 'color_temp' && mode !== 'color_temp') continue;
    if (mode !== undefined && capability.property === 'color' && mode === 'color_temp') continue;
    state[capability.property] = value;
  }
  return state;
}

import type { DeviceView, Json } from './device.types.js';
import devices from './source-devices.json' with { type: 'json' };
import { deviceFrom } from './test-devices.js';

/**
 * Devices of the other sources as the hub lists them (for tests): Home Assistant discovery
 * entities (climate, JSON light, fan, cover with tilt, vacuum, alarm panel with a code, update,
 * button and event, siren, valve, number, select, text, switch), a Tasmota dimmer and a Shelly
 * cover, their capabilities and inputs as the adapters build them (docs/devicehub.md).
 */
export type SourceDevice = keyof typeof devices;

/** The device as the hub lists it (`GET /api/devicehub/devices`), with another state when given. */
export const sourceRaw = (name: SourceDevice, change: Json = {}): Json => ({
  ...(structuredClone(devices[name]) as Json),
  ...change,
});

export const sourceDevice = (name: SourceDevice, state?: Json): DeviceView =>
  deviceFrom(sourceRaw(name, state ? { state } : {}), { hasMetadata: true });

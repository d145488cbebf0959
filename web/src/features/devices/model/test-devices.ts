import { toDevice } from './device.model.js';
import type { DeviceView, Json } from './device.types.js';

/** A displayed device from raw fields, as the store would build it (for tests). */
export const deviceFrom = (
  raw: Json,
  extra: { hasMetadata?: boolean; stateUpdatedAt?: number } = {},
): DeviceView =>
  toDevice({
    key: String(raw.id ?? 'key-1'),
    raw,
    hasMetadata: extra.hasMetadata ?? false,
    metadataUpdatedAt: null,
    stateUpdatedAt: extra.stateUpdatedAt ?? null,
  });

const settable = { readOnly: false, write: true, set: true };
const field = (type: string, property: string, label: string, extra: Json = {}): Json => ({
  id: property,
  type,
  property,
  capability_id: property,
  label,
  access: settable,
  readOnly: false,
  ...extra,
});
const options = (...values: string[]) => values.map((value) => ({ value, label: value }));

/**
 * A siren, a gradient light and a thermostat schedule as the hub sends them (inputs of type
 * composite, list and text, shaped like the hub's mapping of real Zigbee2MQTT definitions).
 */
export const rawGroupDevice = (state: Json = {}): Json => ({
  id: 'siren',
  name: 'Hall siren',
  state,
  inputs: [
    field('composite', 'warning', 'Warning', {
      features: [
        field('select', 'mode', 'Mode', { options: options('stop', 'burglar', 'fire') }),
        field('select', 'level', 'Level', { options: options('low', 'medium', 'high', 'very_high') }),
        field('toggle', 'strobe', 'Strobe', { metadata: { value_on: true, value_off: false } }),
        field('slider', 'strobe_duty_cycle', 'Strobe duty cycle', { range: { min: 0, max: 10 } }),
        field('number', 'duration', 'Duration', { range: { min: 0, max: 1800 } }),
        // A read-only feature never becomes a field.
        { ...field('number', 'measured', 'Measured'), access: { readOnly: true }, readOnly: true },
      ],
    }),
    field('list', 'gradient', 'Gradient', { item: field('text', 'hex', 'Hex'), length: { min: 1, max: 3 } }),
    field('composite', 'weekly_schedule', 'Schedule', {
      features: [
        field('list', 'dayofweek', 'Day of week', {
          item: field('composite', 'day', 'Day', {
            features: [field('select', 'day', 'Day', { options: options('monday', 'friday') })],
          }),
        }),
        field('composite', 'boost', 'Boost', {
          features: [
            field('toggle', 'enabled', 'Enabled', { metadata: { value_on: 'ON', value_off: 'OFF' } }),
          ],
        }),
      ],
    }),
    field('text', 'display_text', 'Display text'),
    field('toggle', 'child_lock', 'Child lock'),
    field('toggle', 'led', 'LED'),
  ],
});

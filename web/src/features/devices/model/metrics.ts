import { binaryLabel, readBinary } from './binary.js';
import { isNumericCapability } from './device.model.js';
import type { DeviceView, Json } from './device.types.js';
import { PART_SOURCES } from './entity-controls.js';
import { formatMetricNumber, humanise } from './format.js';
import { endpointNaming, propertyName } from './property-names.js';

/** docs/strings.md#constants-and-limits default units. */
export const DEFAULT_UNITS: Record<string, string> = { temperature: '°C', humidity: '%', battery: '%' };

/** Metrics read from the state even when no capability announces them. */
export const KNOWN_METRICS = [
  'temperature',
  'humidity',
  'battery',
  'linkquality',
  'contact',
  'battery_low',
  'pressure',
  'illuminance',
  'power',
  'voltage',
  'current',
  'energy',
];

export interface Metric {
  property: string;
  label: string;
  value: string;
  unit: string;
}

export function formatMetricValue(property: string, value: unknown): string | null {
  if (typeof value === 'number') return Number.isFinite(value) ? formatMetricNumber(value) : null;
  if (typeof value === 'boolean') return binaryLabel(property, value);
  if (typeof value === 'string' && value.trim() !== '') {
    const binary = readBinary(value);
    return binary === null ? value : binaryLabel(property, binary);
  }
  return null;
}

/** Composites whose read-only parts a control of their own shows (a lock's, an alarm panel's, an update's state). */
const SHOWN_BY_CONTROL = new Set(['lock', 'alarm_control_panel', 'update']);

/**
 * docs/screens.md#devices-of-other-sources: the readings inside another source's composites, as
 * Zigbee2MQTT's flat ones are read: a climate's current temperature, a vacuum's state and
 * battery, a cover's state (numbers with their unit, words humanised), by their path
 * (`thermostat.current_temperature`); a part's name adds its entity's when a device has several.
 */
export function partMetrics(device: DeviceView): Metric[] {
  if (!PART_SOURCES.has(device.protocol ?? '')) return [];
  const composites = device.capabilities.filter(
    (capability) => capability.kind === 'composite' && capability.features?.length,
  );
  const metrics: Metric[] = [];
  for (const composite of composites) {
    const property = composite.property ?? composite.id;
    const value = property ? device.state[property] : undefined;
    if (!property || SHOWN_BY_CONTROL.has(composite.type ?? '') || !value || typeof value !== 'object')
      continue;
    const label = composite.name || humanise(property);
    for (const part of composite.features ?? []) {
      const key = part.property ?? part.id;
      if (!key) continue;
      const reading = (value as Json)[key];
      const numeric = isNumericCapability(part) && typeof reading === 'number' && Number.isFinite(reading);
      const word = part.kind === 'enum' && part.access?.readOnly === true && typeof reading === 'string';
      if (!numeric && !word) continue;
      const own = propertyName(key, { label: part.name });
      metrics.push({
        property: `${property}.${key}`,
        label: key === 'state' ? label : composites.length > 1 ? `${own} (${label})` : own,
        value: numeric ? formatMetricNumber(reading as number) : humanise(reading as string),
        unit: numeric ? (part.unit ?? '') : '',
      });
    }
  }
  return metrics;
}

/** Numeric capabilities first (in their order), then the known metrics, each once, when the state holds a value. */
export function deviceMetrics(device: DeviceView): Metric[] {
  const units = new Map<string, string | undefined>();
  const labels = new Map<string, string | undefined>();
  for (const capability of device.capabilities) {
    const property = capability.property ?? capability.id;
    if (!property || !isNumericCapability(capability) || units.has(property)) continue;
    units.set(property, capability.unit ?? capability.units);
    labels.set(property, capability.name);
  }
  for (const property of KNOWN_METRICS) if (!units.has(property)) units.set(property, undefined);

  const metrics: Metric[] = [];
  for (const [property, unit] of units) {
    if (!(property in device.state)) continue;
    const value = formatMetricValue(property, device.state[property]);
    if (value === null) continue;
    metrics.push({
      property,
      label: labels.get(property) || humanise(property),
      value,
      unit: typeof device.state[property] === 'number' ? (unit ?? DEFAULT_UNITS[property] ?? '') : '',
    });
  }
  return [...metrics, ...partMetrics(device)];
}

/**
 * docs/screens.md#device-tile: readings that tell how the device itself is (its radio, its
 * supply), not what it measures. They go to the tile's "Details", after the readings, not
 * beside humidity and battery. Zigbee2MQTT marks such exposes `category: diagnostic` (battery
 * too, which a household reads as a headline and so stays one).
 */
const DIAGNOSTICS = new Set([
  'linkquality',
  'rssi',
  'lqi',
  'device_temperature',
  'power_outage_count',
  'update_available',
]);
const HEADLINES = new Set(['battery', 'battery_low', 'low_battery']);

export interface TileMetric extends Metric {
  /** In the tile's Details (docs/screens.md#device-tile). */
  diagnostic: boolean;
}

/**
 * The tile's metrics (deviceMetrics less `exclude`, the properties a control already shows):
 * named from docs/strings.md#property-names, the readings first, then the diagnostics: link
 * quality, a battery device's supply voltage and whatever the device marks as diagnostic.
 */
export function tileMetrics(device: DeviceView, exclude: ReadonlySet<string> = new Set()): TileMetric[] {
  const byProperty = new Map(device.capabilities.map((c) => [c.property ?? c.id, c]));
  const endpoints = new Set(device.capabilities.map((c) => c.metadata?.endpoint).filter(Boolean));
  const naming = endpointNaming(device.description, endpoints.size);
  const onBattery = 'battery' in device.state || 'battery_low' in device.state;
  const metrics = deviceMetrics(device)
    .filter((metric) => !exclude.has(metric.property))
    .map((metric): TileMetric => {
      const capability = byProperty.get(metric.property);
      const endpoint =
        typeof capability?.metadata?.endpoint === 'string' ? capability.metadata.endpoint : undefined;
      const property = metric.property.toLowerCase();
      const diagnostic =
        !HEADLINES.has(property) &&
        (DIAGNOSTICS.has(property) ||
          capability?.metadata?.category === 'diagnostic' ||
          (property === 'voltage' && onBattery));
      return {
        ...metric,
        // A composite's part (`thermostat.current_temperature`) is named already.
        label:
          !capability && metric.property.includes('.')
            ? metric.label
            : propertyName(metric.property, { label: capability?.name, endpoint, naming }),
        diagnostic,
      };
    });
  return [...metrics.filter((m) => !m.diagnostic), ...metrics.filter((m) => m.diagnostic)];
}

export interface CapabilityError {
  property: string;
  label: string;
  error: string;
}

/** docs/devicehub.md#capability: the capabilities whose last value could not be read (a Home Assistant template that failed). */
export function capabilityErrors(device: DeviceView): CapabilityError[] {
  return device.capabilities.flatMap((capability) => {
    const property = capability.property ?? capability.id;
    if (!property || typeof capability.error !== 'string' || capability.error === '') return [];
    return [{ property, label: propertyName(property, { label: capability.name }), error: capability.error }];
  });
}

export interface EventReading {
  property: string;
  label: string;
  /** The last event, in words ("Double press"). */
  value: string;
}

/** docs/screens.md#devices-of-other-sources: each event entity's last event (its time is the store's, getEventTime). */
export function eventReadings(device: DeviceView): EventReading[] {
  return device.capabilities.flatMap((capability) => {
    const property = capability.property ?? capability.id;
    const value = property ? device.state[property] : undefined;
    if (!property || capability.type !== 'event' || typeof value !== 'string' || value === '') return [];
    return [{ property, label: propertyName(property, { label: capability.name }), value: humanise(value) }];
  });
}

/**
 * A room's climate reading from a device (docs/screens.md#room-cards), whatever its source:
 * `temperature` / `humidity` in its state (Zigbee2MQTT, Shelly), else a reading whose
 * `device_class` says so (a Home Assistant or Tasmota sensor), else a climate's current one.
 */
export function climateReading(device: DeviceView, quantity: 'temperature' | 'humidity'): number | null {
  const finite = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);
  if (finite(device.state[quantity])) return device.state[quantity];
  for (const capability of device.capabilities) {
    const property = capability.property ?? capability.id;
    if (!property) continue;
    const value = device.state[property];
    if (capability.metadata?.device_class === quantity && finite(value)) return value;
    if (capability.kind === 'composite' && value && typeof value === 'object') {
      const current = (value as Json)[`current_${quantity}`];
      if (finite(current)) return current;
    }
  }
  return null;
}

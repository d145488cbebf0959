import { binaryLabel, readBinary } from './binary.js';
import { isNumericCapability } from './device.model.js';
import type { DeviceView } from './device.types.js';
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
  return metrics;
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
        label: propertyName(metric.property, { label: capability?.name, endpoint, naming }),
        diagnostic,
      };
    });
  return [...metrics.filter((m) => !m.diagnostic), ...metrics.filter((m) => m.diagnostic)];
}

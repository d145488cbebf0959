import { binaryLabel, readBinary } from './binary.js';
import { isNumericCapability } from './device.model.js';
import type { DeviceView } from './device.types.js';
import { formatMetricNumber, humanise } from './format.js';

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

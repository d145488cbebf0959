import type { HistoryAnswer } from '@hearth/contracts';
import { isNumericCapability } from './device.model.js';
import type { CapabilityReading } from './device.types.js';
import { humanise } from './format.js';
import { DEFAULT_UNITS } from './metrics.js';

/**
 * docs/history.md#sparklines: the tile's main numeric metric, the first of these the device has;
 * else its first read-only numeric capability that is not a radio or housekeeping figure.
 */
export const SPARKLINE_PRIORITY = [
  'temperature',
  'power',
  'humidity',
  'co2',
  'pm25',
  'illuminance',
  'pressure',
  'current',
  'energy',
  'soil_moisture',
  'battery',
];

/** Never the main metric: radio quality and diagnostics. */
const NOT_MAIN = new Set(['linkquality', 'rssi', 'voltage', 'device_temperature', 'update_available']);

export interface SparklineMetric {
  property: string;
  label: string;
  unit: string;
}

const writable = (capability: CapabilityReading) =>
  capability.access?.write === true || capability.access?.set === true || capability.access?.command === true;

/** Which property the tile's sparkline shows, or null (no numeric metric worth a line). */
export function sparklineMetric(capabilities: readonly CapabilityReading[]): SparklineMetric | null {
  const numeric = capabilities.filter(
    (capability) => isNumericCapability(capability) && typeof capability.property === 'string',
  );
  const pick =
    SPARKLINE_PRIORITY.map((name) => numeric.find((c) => c.property === name)).find(Boolean) ??
    numeric.find((c) => !writable(c) && !NOT_MAIN.has(c.property as string));
  if (!pick) return null;
  const property = pick.property as string;
  return {
    property,
    label: pick.name || humanise(property),
    unit: pick.unit ?? pick.units ?? DEFAULT_UNITS[property] ?? '',
  };
}

/** A sparkline's points: x in ms, y the value (a bucket's mean), null at a gap. */
export interface SparklinePoints {
  x: number[];
  y: (number | null)[];
}

/** An answer as a sparkline's points; nothing numeric: empty. */
export function sparklinePoints(answer: Pick<HistoryAnswer, 'points'>): SparklinePoints {
  const out: SparklinePoints = { x: [], y: [] };
  for (const point of answer.points) {
    const value = 'v' in point ? point.v : 'mean' in point ? point.mean : null;
    out.x.push(point.t);
    out.y.push(typeof value === 'number' && Number.isFinite(value) ? value : null);
  }
  return out;
}

/**
 * The SVG path of a sparkline in a `width` × `height` box over [from, to]: the values scaled to
 * their own min–max, a gap (null) breaks the line; a lone point between gaps is a short dash.
 * Empty when there is nothing to draw.
 */
export function sparklinePath(
  points: SparklinePoints,
  from: number,
  to: number,
  width: number,
  height: number,
): string {
  let min = Number.POSITIVE_INFINITY;
  let max = Number.NEGATIVE_INFINITY;
  for (const y of points.y) {
    if (y === null) continue;
    if (y < min) min = y;
    if (y > max) max = y;
  }
  if (min > max || to <= from) return '';
  const pad = 1;
  const span = max - min;
  const sx = (x: number) =>
    Math.round(((Math.min(to, Math.max(from, x)) - from) / (to - from)) * width * 10) / 10;
  const sy = (y: number) =>
    Math.round((span === 0 ? height / 2 : pad + (1 - (y - min) / span) * (height - 2 * pad)) * 10) / 10;
  const parts: string[] = [];
  let drawing = false;
  let segmentLength = 0;
  let lastX = 0;
  for (let i = 0; i < points.x.length; i++) {
    const y = points.y[i] ?? null;
    if (y === null) {
      if (drawing && segmentLength === 1) parts.push(`H${Math.min(width, lastX + 1)}`);
      drawing = false;
      continue;
    }
    const x = sx(points.x[i]!);
    parts.push(`${drawing ? 'L' : 'M'}${x} ${sy(y)}`);
    segmentLength = drawing ? segmentLength + 1 : 1;
    drawing = true;
    lastX = x;
  }
  if (drawing && segmentLength === 1) parts.push(`H${Math.min(width, lastX + 1)}`);
  return parts.join('');
}

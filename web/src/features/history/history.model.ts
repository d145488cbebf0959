import type { Capability, HistoryAnswer, HistoryPoint } from '@hearth/contracts';

/** docs/history.md#device-history-page: the range presets. */
export const RANGES = [
  { id: '6h', label: '6 h', ms: 6 * 3_600_000 },
  { id: '24h', label: '24 h', ms: 24 * 3_600_000 },
  { id: '7d', label: '7 d', ms: 7 * 86_400_000 },
  { id: '30d', label: '30 d', ms: 30 * 86_400_000 },
  { id: '1y', label: '1 y', ms: 365 * 86_400_000 },
] as const;
export type RangeId = (typeof RANGES)[number]['id'];

export const HISTORY_TEXTS = {
  title: (name: string) => `${name}: history`,
  back: 'Back to devices',
  empty: 'Nothing recorded in this range yet',
  failed: 'Could not load the history',
  notFound: 'Device not found',
  resetZoom: 'Reset zoom',
  ranges: 'Range',
  // docs/history.md#exclusions-in-the-app
  settings: 'Recording settings',
  settingsFor: (name: string) => `(recording settings for ${name})`,
  tileSettings: 'History…',
  recordDevice: 'Record history for this device',
  properties: 'Properties',
  propertiesHint: 'Switched off: not recorded from now on. What was recorded stays.',
  save: 'Save',
  saving: 'Saving…',
  cancel: 'Cancel',
  saved: 'Recording settings saved',
  // docs/history.md#device-history-page
  csv: 'CSV',
  csvLabel: (property: string) => `Download ${property} as CSV`,
  since: (time: string) => `Recorded since ${time}`,
} as const;

/** The presets that start where the readings start, when those start well inside them. */
const SCALED_PRESETS: readonly RangeId[] = ['6h', '24h'];

/**
 * docs/history.md#device-history-page: where the charts of a 6 h or 24 h view start. Readings that
 * start more than a tenth of the range after its start (a fresh install, a new device) are drawn
 * from just before their first one (a twentieth of what they span, at least a second) rather than
 * squeezed against the right edge; otherwise, after a zoom, and for the longer presets, the range's
 * own start. `firsts`: each chart's first reading (ms), null for a chart without any.
 */
export function shownFrom(
  range: { preset: RangeId | undefined; from: number; to: number },
  firsts: readonly (number | null)[],
): number {
  if (!range.preset || !SCALED_PRESETS.includes(range.preset)) return range.from;
  const times = firsts.filter((first): first is number => first !== null);
  if (times.length === 0) return range.from;
  const first = Math.min(...times);
  if (first - range.from <= (range.to - range.from) / 10) return range.from;
  return Math.max(range.from, first - Math.max(1000, (range.to - first) / 20));
}

/** A chartable property: numbers as lines, on/off and enum values as steps. */
export interface ChartProperty {
  path: string;
  label: string;
  unit: string | undefined;
  type: 'number' | 'boolean' | 'string';
  /** Enum values in order (a step chart shows their position). */
  values?: string[];
}

/** The properties of a device the history records (docs/history.md#recording), in capability order. */
export function chartProperties(capabilities: readonly Capability[]): ChartProperty[] {
  const out: ChartProperty[] = [];
  const seen = new Set<string>();
  const walk = (capability: Capability, path: string, label: string) => {
    const add = (property: ChartProperty) => {
      if (seen.has(property.path)) return;
      seen.add(property.path);
      out.push(property);
    };
    if (capability.kind === 'numeric') add({ path, label, unit: capability.unit, type: 'number' });
    else if (capability.kind === 'binary') add({ path, label, unit: undefined, type: 'boolean' });
    else if (capability.kind === 'enum')
      add({ path, label, unit: undefined, type: 'string', values: capability.enum ?? [] });
    else if (capability.kind === 'composite') {
      for (const feature of capability.features ?? []) {
        walk(feature, `${path}.${feature.property}`, `${label} ${feature.name}`);
      }
      const fields = capability.metadata?.features;
      if (!capability.features && Array.isArray(fields)) {
        for (const field of fields) {
          if (typeof field === 'string')
            add({ path: `${path}.${field}`, label: `${label} ${field}`, unit: undefined, type: 'number' });
        }
      }
    }
  };
  for (const capability of capabilities) walk(capability, capability.property, capability.name);
  return out;
}

/** uPlot's columns: x in seconds; y the value (a bucket's mean), null at gaps; min/max when bucketed. */
export interface ChartData {
  x: number[];
  y: (number | null)[];
  min: (number | null)[] | undefined;
  max: (number | null)[] | undefined;
}

/** A value as the chart draws it: numbers as they are, on/off as 1/0, an enum value by its position. */
export function plotValue(value: unknown, property: Pick<ChartProperty, 'values'>): number | null {
  if (typeof value === 'number') return value;
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (typeof value === 'string') {
    const values = property.values ?? [];
    const index = values.indexOf(value);
    return index >= 0 ? index : null;
  }
  return null;
}

/** docs/history.md#gaps: an answer's points as chart columns, gaps as nulls (a break in the line). */
export function toChartData(
  answer: Pick<HistoryAnswer, 'resolution' | 'points'>,
  property: Pick<ChartProperty, 'values'> = {},
): ChartData {
  const bucketed = answer.resolution !== 'raw';
  const data: ChartData = { x: [], y: [], min: bucketed ? [] : undefined, max: bucketed ? [] : undefined };
  for (const point of answer.points as HistoryPoint[]) {
    data.x.push(point.t / 1000);
    if ('v' in point) {
      data.y.push(plotValue(point.v, property));
      continue;
    }
    const numeric = 'mean' in point;
    data.y.push(point.count === 0 ? null : numeric ? point.mean : plotValue(point.last, property));
    data.min?.push(numeric && point.count > 0 ? point.min : null);
    data.max?.push(numeric && point.count > 0 ? point.max : null);
  }
  return data;
}

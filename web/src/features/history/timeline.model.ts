import type { HistoryAnswer, HistoryPoint } from '@hearth/contracts';
import type { ChartProperty } from './history.model.js';

/**
 * docs/history.md#timelines: on/off and enum values as coloured bands. A segment holds one value
 * from `start` until `end` (ms); nothing is drawn before the first entry, at a gap, or after `to`.
 */
export interface TimelineSegment {
  start: number;
  end: number;
  /** The value as the API answered it (`true`/`false` or the enum value). */
  value: boolean | string;
  /** What the crosshair shows: "On", "Off" or the enum value. */
  label: string;
  /** The colour: 0 off, 1 on (on/off); the value's position in the capability's list (enums). */
  colour: number;
  /** Bucketed only: the value changed within the first bucket of this segment (its `last` differs). */
  changedWithin: boolean;
  /** How many readings the segment's entries hold (raw: one per reading; buckets: their counts). */
  readings: number;
}

export interface Timeline {
  segments: TimelineSegment[];
  /** Width of one bucket (0: raw readings, every change at its time). */
  bucketMs: number;
}

/** Enum colours in the token layer: `--timeline-1` … `--timeline-N`, then again from the first. */
export const TIMELINE_PALETTE = 6;

/** The label of a value: on/off as "On"/"Off", an enum value as it is. */
export function timelineLabel(value: boolean | string): string {
  if (typeof value === 'boolean') return value ? 'On' : 'Off';
  return value;
}

function colourOf(value: boolean | string, property: Pick<ChartProperty, 'values'>): number {
  if (typeof value === 'boolean') return value ? 1 : 0;
  const index = (property.values ?? []).indexOf(value);
  if (index >= 0) return index % TIMELINE_PALETTE;
  // A value the capability does not list: a stable colour from its text.
  let hash = 0;
  for (const char of value) hash = (hash * 31 + char.charCodeAt(0)) >>> 0;
  return hash % TIMELINE_PALETTE;
}

/** The value an entry holds: a raw reading's `v`, a bucket's `last`; null at a gap. */
function entryValue(point: HistoryPoint): { value: boolean | string | null; count: number } {
  if ('v' in point) {
    const v = point.v;
    return { value: typeof v === 'boolean' || typeof v === 'string' ? v : null, count: v === null ? 0 : 1 };
  }
  const last = point.last;
  if (point.count === 0 || last === null) return { value: null, count: 0 };
  return { value: typeof last === 'number' ? null : last, count: point.count };
}

/**
 * An answer's entries as segments: consecutive entries with the same value merge (heartbeat
 * repeats draw nothing new); a value lasts until the next entry, a gap ends it, the last one lasts
 * until `end` (the range's end, or now when that is earlier). Buckets are drawn by their `last`
 * from the bucket's start; a bucket whose `last` differs from the one before is marked
 * `changedWithin` (the change happened somewhere inside it).
 */
export function toTimeline(
  answer: Pick<HistoryAnswer, 'resolution' | 'bucket_ms' | 'points'>,
  property: Pick<ChartProperty, 'values'>,
  end: number,
): Timeline {
  const bucketMs = answer.resolution === 'raw' ? 0 : answer.bucket_ms;
  const segments: TimelineSegment[] = [];
  let open: TimelineSegment | undefined;
  for (const point of answer.points) {
    const { value, count } = entryValue(point);
    if (value === null) {
      if (open) open.end = point.t;
      open = undefined;
      continue;
    }
    if (open && open.value === value) {
      open.readings += count;
      continue;
    }
    if (open) open.end = point.t;
    open = {
      start: point.t,
      end: point.t,
      value,
      label: timelineLabel(value),
      colour: colourOf(value, property),
      // A value after a gap or at the start is not a change seen within the bucket.
      changedWithin: bucketMs > 0 && segments.length > 0 && segments[segments.length - 1]!.end === point.t,
      readings: count,
    };
    segments.push(open);
  }
  if (open) open.end = Math.max(open.start + bucketMs, end);
  return { segments, bucketMs };
}

/** The segment at time `t` (ms), if any: what the crosshair shows there. */
export function segmentAt(timeline: Timeline, t: number): TimelineSegment | undefined {
  const { segments } = timeline;
  let low = 0;
  let high = segments.length - 1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    const segment = segments[middle]!;
    if (t < segment.start) high = middle - 1;
    else if (t >= segment.end) low = middle + 1;
    else return segment;
  }
  return undefined;
}

/** The crosshair's text for a time: "On", "Off", the enum value; "–" where nothing is drawn. */
export function timelineValueAt(timeline: Timeline, t: number): string {
  const segment = segmentAt(timeline, t);
  if (!segment) return '–';
  if (timeline.bucketMs > 0 && segment.changedWithin && t < segment.start + timeline.bucketMs) {
    return `${segment.label} (changed in this bucket)`;
  }
  return segment.label;
}

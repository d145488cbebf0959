import type { HistoryValue } from '@hearth/contracts';

/** What a series' values are (docs/history.md#recording). */
export type SeriesType = 'number' | 'boolean' | 'string';

/** A raw reading; `v: null` is a gap marker. */
export interface Reading {
  t: number;
  v: HistoryValue | null;
}

/** A bucket as stored and answered: min/max/mean only for numbers; `count` counts readings. */
export interface Bucket {
  t: number;
  min: number | null;
  max: number | null;
  mean: number | null;
  last: HistoryValue | null;
  count: number;
}

export const MINUTE = 60_000;
export const FIVE_MINUTES = 5 * MINUTE;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;

/** The start of the bucket of width `width` that holds `t`. */
export const bucketStart = (t: number, width: number) => Math.floor(t / width) * width;

/** A reading as a bucket of its own. */
const readingBucket = (t: number, v: HistoryValue): Bucket => {
  const number = typeof v === 'number' ? v : null;
  return { t, min: number, max: number, mean: number, last: v, count: 1 };
};

/** Raw readings (oldest first) into buckets of `width`; gap markers count for nothing. */
export const bucketize = (readings: readonly Reading[], width: number): Bucket[] =>
  combine(
    readings.flatMap(({ t, v }) => (v === null ? [] : [readingBucket(t, v)])),
    width,
  );

/** Buckets (oldest first) merged into wider ones of `width`: min of mins, max of maxes, mean weighted by count, the last last. */
export function combine(buckets: readonly Bucket[], width: number): Bucket[] {
  const merged: Bucket[] = [];
  let current: Bucket | undefined;
  let sum = 0;
  let numbers = 0;
  const close = () => {
    if (!current) return;
    if (numbers > 0) current.mean = sum / numbers;
    merged.push(current);
  };
  for (const bucket of buckets) {
    const start = bucketStart(bucket.t, width);
    if (!current || current.t !== start) {
      close();
      current = { t: start, min: null, max: null, mean: null, last: null, count: 0 };
      sum = 0;
      numbers = 0;
    }
    current.count += bucket.count;
    if (bucket.last !== null) current.last = bucket.last;
    if (bucket.min !== null)
      current.min = current.min === null ? bucket.min : Math.min(current.min, bucket.min);
    if (bucket.max !== null)
      current.max = current.max === null ? bucket.max : Math.max(current.max, bucket.max);
    if (bucket.mean !== null) {
      sum += bucket.mean * bucket.count;
      numbers += bucket.count;
    }
  }
  close();
  return merged;
}

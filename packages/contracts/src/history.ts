/** Shapes of the history API (docs/history.md#api), shared by server and web app. */

export type HistoryResolution = 'raw' | '5m' | '1h';

export type HistoryValue = number | boolean | string;

/** A raw reading; `v: null` marks a gap (the device went offline, or Hearth was not running). */
export interface HistoryRawPoint {
  t: number;
  v: HistoryValue | null;
}

/** A numeric bucket; a gap marker has `count: 0` and every value null. */
export interface HistoryNumericBucket {
  t: number;
  min: number | null;
  max: number | null;
  mean: number | null;
  last: number | null;
  count: number;
}

/** A bucket of on/off or enum values; a gap marker has `count: 0` and `last: null`. */
export interface HistoryValueBucket {
  t: number;
  last: boolean | string | null;
  count: number;
}

export type HistoryPoint = HistoryRawPoint | HistoryNumericBucket | HistoryValueBucket;

/** GET /api/history */
export interface HistoryAnswer {
  device_id: string;
  property: string;
  resolution: HistoryResolution;
  /** Width of one bucket in ms (0 for raw); hourly buckets are merged n at a time when the range needs it. */
  bucket_ms: number;
  /** `number`, `boolean` or `string`. */
  type: 'number' | 'boolean' | 'string';
  points: HistoryPoint[];
}

/** GET and PUT /api/history/exclusions/{device_id} */
export interface HistoryExclusions {
  device_id: string;
  /** The whole device is not recorded. */
  device: boolean;
  /** These properties are not recorded (dotted paths for a composite's leaves). */
  properties: string[];
}

export const HISTORY_DEFAULT_POINTS = 1000;
export const HISTORY_MAX_POINTS = 20000;

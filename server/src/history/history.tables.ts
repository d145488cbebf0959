/** Tables of the history domain, added by migration 0011 (docs/history.md#storage). */

/** One recorded property of one device; the other tables refer to it by `id`. */
export interface HistorySeriesTable {
  id: number;
  device_id: string;
  /** The state property, a composite's leaves by their dotted path (`color.x`). */
  property: string;
  /** What its values are: `number`, `boolean` or `string` (enum). */
  type: string;
}

/** Raw readings: one column holds the value, by the series' type; all three null: a gap marker. */
export interface HistoryRawTable {
  series_id: number;
  /** Epoch ms. */
  t: number;
  num: number | null;
  bool: number | null;
  text: string | null;
}

/** 5-minute and hourly buckets: `t` is the bucket's start (epoch ms). */
export interface HistoryBucketTable {
  series_id: number;
  t: number;
  /** Numbers only (null otherwise). */
  min: number | null;
  max: number | null;
  mean: number | null;
  last_num: number | null;
  last_bool: number | null;
  last_text: string | null;
  count: number;
}

/** A device (property '') or one of its properties that is not recorded. */
export interface HistoryExclusionsTable {
  device_id: string;
  property: string;
}

/** Where a background job has got to (`rollup_5m`, `rollup_1h`): epoch ms. */
export interface HistoryProgressTable {
  name: string;
  t: number;
}

/** When a device went offline (device_id) or Hearth started (device_id ''): epoch ms. */
export interface HistoryGapsTable {
  device_id: string;
  t: number;
}

export interface HistoryTables {
  history_series: HistorySeriesTable;
  history_raw: HistoryRawTable;
  history_5m: HistoryBucketTable;
  history_1h: HistoryBucketTable;
  history_exclusions: HistoryExclusionsTable;
  history_progress: HistoryProgressTable;
  history_gaps: HistoryGapsTable;
}

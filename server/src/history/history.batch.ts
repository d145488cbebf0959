import type { HistoryValue } from '@hearth/contracts';
import type { RawRow } from './history.repository.js';

/** Readings by columns: typed arrays cross to the history worker without being copied. */
export interface RawColumns {
  series: Float64Array<ArrayBuffer>;
  t: Float64Array<ArrayBuffer>;
  num: Float64Array<ArrayBuffer>;
  /** 0 none, 1 number (`num`), 2 false, 3 true, 4 text (the next of `texts`). */
  kind: Uint8Array<ArrayBuffer>;
  texts: string[];
}

const NONE = 0;
const NUMBER = 1;
const FALSE = 2;
const TRUE = 3;
const TEXT = 4;

/**
 * The recorder's buffer (docs/history.md#recording): readings kept by columns as they arrive,
 * with no object per reading. On the stream's thread that matters: a second's readings, held
 * until the next flush, would otherwise outlive the young generation and be copied into the old
 * one, and a flush would walk them all again to build the worker's columns.
 */
export class ReadingBatch {
  length = 0;
  private series = new Float64Array(256);
  private t = new Float64Array(256);
  private num = new Float64Array(256);
  private kind = new Uint8Array(256);
  private texts: string[] = [];

  push(seriesId: number, t: number, v: HistoryValue | null) {
    if (this.length === this.series.length) this.grow(this.length * 2);
    const i = this.length++;
    this.series[i] = seriesId;
    this.t[i] = t;
    if (typeof v === 'number') {
      this.kind[i] = NUMBER;
      this.num[i] = v;
    } else if (typeof v === 'boolean') {
      this.kind[i] = v ? TRUE : FALSE;
    } else if (typeof v === 'string') {
      this.kind[i] = TEXT;
      this.texts.push(v);
    } else {
      this.kind[i] = NONE;
    }
  }

  /** Adds `other`'s readings after this one's. */
  append(other: ReadingBatch) {
    if (this.length + other.length > this.series.length) this.grow(this.length + other.length);
    this.series.set(other.series.subarray(0, other.length), this.length);
    this.t.set(other.t.subarray(0, other.length), this.length);
    this.num.set(other.num.subarray(0, other.length), this.length);
    this.kind.set(other.kind.subarray(0, other.length), this.length);
    this.texts.push(...other.texts);
    this.length += other.length;
  }

  /** Drops the `count` oldest readings. */
  dropOldest(count: number) {
    const n = Math.min(count, this.length);
    let texts = 0;
    for (let i = 0; i < n; i++) if (this.kind[i] === TEXT) texts++;
    for (const column of [this.series, this.t, this.num]) column.copyWithin(0, n, this.length);
    this.kind.copyWithin(0, n, this.length);
    this.texts.splice(0, texts);
    this.length -= n;
  }

  /** The earliest time in the batch. */
  oldest(): number {
    let oldest = Number.POSITIVE_INFINITY;
    for (let i = 0; i < this.length; i++) if (this.t[i]! < oldest) oldest = this.t[i]!;
    return oldest;
  }

  /** A copy of the readings as columns of their exact length (to hand over: the batch keeps its own). */
  columns(): RawColumns {
    return {
      series: this.series.slice(0, this.length),
      t: this.t.slice(0, this.length),
      num: this.num.slice(0, this.length),
      kind: this.kind.slice(0, this.length),
      texts: [...this.texts],
    };
  }

  private grow(size: number) {
    const series = new Float64Array(size);
    const t = new Float64Array(size);
    const num = new Float64Array(size);
    const kind = new Uint8Array(size);
    series.set(this.series.subarray(0, this.length));
    t.set(this.t.subarray(0, this.length));
    num.set(this.num.subarray(0, this.length));
    kind.set(this.kind.subarray(0, this.length));
    this.series = series;
    this.t = t;
    this.num = num;
    this.kind = kind;
  }
}

/** The readings of columns, back as rows (the repository's insert, in the worker or on PostgreSQL). */
export function rowsOf(columns: RawColumns): RawRow[] {
  const rows: RawRow[] = new Array(columns.series.length);
  let text = 0;
  for (let i = 0; i < rows.length; i++) {
    const kind = columns.kind[i];
    const v: HistoryValue | null =
      kind === NUMBER
        ? columns.num[i]!
        : kind === FALSE
          ? false
          : kind === TRUE
            ? true
            : kind === TEXT
              ? columns.texts[text++]!
              : null;
    rows[i] = { series_id: columns.series[i]!, t: columns.t[i]!, v };
  }
  return rows;
}

import type { Device, DeviceState, HistoryValue } from '@hearth/contracts';
import type { Logger } from 'pino';
import type { DeviceListener } from '../devicehub/index.js';
import { ReadingBatch, rowsOf } from './history.batch.js';
import type { SeriesType } from './history.buckets.js';
import { leavesOf, UNLISTED } from './history.leaves.js';
import type { HistoryRepository, Series } from './history.repository.js';
import type { RawStore } from './history.writer.js';

export interface RecorderOptions {
  repository: HistoryRepository;
  /** Where readings and gaps are written (default: `repository`; on SQLite the history worker). */
  store?: RawStore;
  log: Logger;
  /** A repeat of the same value is recorded at most once per this many ms (HISTORY_HEARTBEAT). */
  heartbeatMs: number;
  /** How often the buffer is written (ms). */
  flushIntervalMs?: number;
  /** A buffer this long is written at once, without waiting for the interval. */
  flushRows?: number;
  /** Most readings kept while the database is away; the oldest go first beyond it. */
  maxBuffered?: number;
  now?: () => number;
  /** Told the oldest time of each batch written (the roll-up goes back for late readings). */
  written?: (oldest: number) => void;
}

/** A reading of a series not created yet (its first readings: rare). */
interface Unresolved {
  device_id: string;
  property: string;
  type: SeriesType;
  t: number;
  v: HistoryValue;
}

interface Last {
  v: HistoryValue;
  t: number;
}

/**
 * docs/history.md#recording: notes each state message's numeric, binary and enum values on the
 * stream's path (a map look-up and an array push per value) and writes them in batches, one
 * transaction each, away from it.
 */
export class HistoryRecorder implements DeviceListener {
  private buffer = new ReadingBatch();
  private unresolved: Unresolved[] = [];
  private gaps: { device_id: string; t: number }[] = [];
  /** The last value recorded of each device's properties. */
  private readonly last = new Map<string, Map<string, Last>>();
  /** Each device's series by property: no key built per reading. */
  private readonly seriesIds = new Map<string, Map<string, { id: number; type: SeriesType }>>();
  /** Properties (by device) already warned about for an enum value their list does not name. */
  private readonly warnedUnlisted = new Map<string, Set<string>>();
  private excludedDevices = new Set<string>();
  /** Excluded properties by device: one look-up per message, no key built per reading. */
  private excludedProperties = new Map<string, Set<string>>();
  /** Nothing is recorded until the exclusions are known. */
  private loaded = false;
  private flushing: Promise<void> | undefined;
  private flushSoon = false;
  private failingSince: number | undefined;
  private dropped = 0;
  private timer: NodeJS.Timeout;
  private readonly now: () => number;
  private readonly store: RawStore;

  constructor(private readonly options: RecorderOptions) {
    this.now = options.now ?? Date.now;
    const { repository } = options;
    this.store = options.store ?? {
      addGaps: (gaps) => repository.addGaps(gaps),
      ensureSeries: (wanted) => repository.ensureSeries(wanted),
      insertColumns: (columns) => repository.insertRaw(rowsOf(columns)),
    };
    // Half an interval late, so that its flushes fall between the device state writer's.
    const interval = options.flushIntervalMs ?? 1000;
    this.timer = setTimeout(() => {
      this.timer = setInterval(() => void this.flush(), interval);
      this.timer.unref();
    }, interval / 2);
    this.timer.unref();
  }

  /** Sets what is not recorded (device ids; and `device\0property` pairs). */
  setExclusions(rows: readonly { device_id: string; property: string }[]) {
    this.excludedDevices = new Set(rows.filter((r) => r.property === '').map((r) => r.device_id));
    this.excludedProperties = new Map();
    for (const { device_id, property } of rows) {
      if (property === '') continue;
      const properties = this.excludedProperties.get(device_id) ?? new Set<string>();
      properties.add(property);
      this.excludedProperties.set(device_id, properties);
    }
    this.loaded = true;
  }

  // ── device hub listener (the stream's path: no I/O, no waiting) ──────────────────────────────

  stateReported(device: Device, state: DeviceState, retained: boolean) {
    // A retained message is the broker replaying an old value: its time is not now.
    if (retained || !this.loaded || this.excludedDevices.has(device.id)) return;
    const leaves = leavesOf(device);
    if (leaves.size === 0) return;
    const t = this.now();
    const excluded = this.excludedProperties.get(device.id);
    const series = this.seriesIds.get(device.id);
    let last = this.last.get(device.id);
    for (const property in state) {
      const list = leaves.get(property);
      if (!list) continue;
      const value = state[property];
      for (const leaf of list) {
        const v = leaf.read(value);
        if (v === undefined) continue;
        if (excluded?.has(leaf.path)) continue;
        if (v === UNLISTED) {
          this.unlisted(device, leaf.path, value);
          continue;
        }
        if (!last) {
          last = new Map();
          this.last.set(device.id, last);
        }
        const before = last.get(leaf.path);
        if (before) {
          if (before.v === v && t - before.t < this.options.heartbeatMs) continue;
          before.v = v;
          before.t = t;
        } else {
          last.set(leaf.path, { v, t });
        }
        const known = series?.get(leaf.path);
        if (!known)
          this.unresolved.push({ device_id: device.id, property: leaf.path, type: leaf.type, t, v });
        // A property whose kind changed keeps its first type; other values are not recorded.
        else if (known.type === leaf.type) this.buffer.push(known.id, t, v);
      }
    }
    this.bound();
  }

  /** docs/history.md#recording: an enum value outside its list is not recorded; one warning each. */
  private unlisted(device: Device, property: string, value: unknown) {
    let warned = this.warnedUnlisted.get(device.id);
    if (warned?.has(property)) return;
    if (!warned) {
      warned = new Set();
      this.warnedUnlisted.set(device.id, warned);
    }
    warned.add(property);
    this.options.log.warn(
      { device_id: device.id, property, value: String(value).slice(0, 64) },
      'history: an enum value not in its list is not recorded',
    );
  }

  onlineChanged(device: Device, online: boolean) {
    if (online) return;
    // docs/history.md#gaps: from here until its next reading the device's charts show a gap; that
    // next reading is recorded even if it repeats the last one.
    this.last.delete(device.id);
    this.gaps.push({ device_id: device.id, t: this.now() });
  }

  // ── writing ──────────────────────────────────────────────────────────────────────────────────

  private bound() {
    const max = this.options.maxBuffered ?? 200_000;
    const buffered = this.buffer.length + this.unresolved.length;
    if (buffered > max) {
      const excess = buffered - max;
      const fromBuffer = Math.min(excess, this.buffer.length);
      this.buffer.dropOldest(fromBuffer);
      this.unresolved.splice(0, excess - fromBuffer);
      if (this.dropped === 0) {
        this.options.log.warn({ maxBuffered: max }, 'history buffer full: the oldest readings are dropped');
      }
      this.dropped += excess;
    }
    // While writes fail, the interval retries: an immediate retry would spin when it fails at once.
    if (!this.flushSoon && this.failingSince === undefined && buffered >= (this.options.flushRows ?? 5000)) {
      this.flushSoon = true;
      setImmediate(() => {
        this.flushSoon = false;
        void this.flush();
      });
    }
  }

  /** Writes what is buffered; a flush already running is awaited, not doubled. */
  async flush(): Promise<void> {
    if (this.flushing) return this.flushing;
    if (this.buffer.length === 0 && this.unresolved.length === 0 && this.gaps.length === 0) return;
    const pending = { batch: this.buffer, unresolved: this.unresolved };
    const gaps = this.gaps;
    this.buffer = new ReadingBatch();
    this.unresolved = [];
    this.gaps = [];
    this.flushing = this.write(pending, gaps)
      .then(() => {
        if (this.failingSince !== undefined) {
          this.options.log.info(
            { failedMs: this.now() - this.failingSince, dropped: this.dropped },
            'history recording works again',
          );
        }
        if (this.dropped > 0 && this.failingSince === undefined) {
          this.options.log.warn(
            { dropped: this.dropped },
            'history readings dropped while the buffer was full',
          );
        }
        this.failingSince = undefined;
        this.dropped = 0;
      })
      .catch((error) => {
        if (this.failingSince === undefined) {
          this.failingSince = this.now();
          this.options.log.warn(
            { err: error, readings: pending.batch.length + pending.unresolved.length },
            'history recording failed; retrying',
          );
        }
        pending.batch.append(this.buffer);
        this.buffer = pending.batch;
        this.unresolved = [...pending.unresolved, ...this.unresolved];
        this.gaps = [...gaps, ...this.gaps];
        this.bound();
      })
      .finally(() => {
        this.flushing = undefined;
      });
    return this.flushing;
  }

  /** Writes `pending`; its first readings of new series become readings of the batch once created. */
  private async write(
    pending: { batch: ReadingBatch; unresolved: Unresolved[] },
    gaps: { device_id: string; t: number }[],
  ) {
    const { unresolved } = pending;
    if (unresolved.length > 0) {
      const wanted = new Map<string, Omit<Series, 'id'>>();
      for (const { device_id, property, type } of unresolved) {
        if (!this.seriesIds.get(device_id)?.has(property)) {
          wanted.set(`${device_id}\u0000${property}`, { device_id, property, type });
        }
      }
      for (const s of await this.store.ensureSeries([...wanted.values()])) {
        let series = this.seriesIds.get(s.device_id);
        if (!series) {
          series = new Map();
          this.seriesIds.set(s.device_id, series);
        }
        series.set(s.property, { id: s.id, type: s.type });
      }
      for (const reading of unresolved) {
        // None: the database refused the series (history.writer.ts sets it aside). A property
        // whose kind changed keeps its first type; other values are not recorded.
        const series = this.seriesIds.get(reading.device_id)?.get(reading.property);
        if (series?.type === reading.type) pending.batch.push(series.id, reading.t, reading.v);
      }
      pending.unresolved = [];
    }
    const { batch } = pending;
    // Gaps first: a batch retried after a failure may repeat a gap (harmless), never a reading
    // (unless the history worker stopped between its commit and its answer: stored twice, not lost).
    await this.store.addGaps(gaps);
    if (batch.length === 0) return;
    await this.store.insertColumns(batch.columns());
    this.options.written?.(batch.oldest());
  }

  async close() {
    clearTimeout(this.timer);
    clearInterval(this.timer);
    await this.flushing;
    await this.flush();
  }
}

import type { Device, DeviceState, HistoryValue } from '@hearth/contracts';
import type { Logger } from 'pino';
import type { DeviceListener } from '../devicehub/index.js';
import type { SeriesType } from './history.buckets.js';
import { leavesOf } from './history.leaves.js';
import type { HistoryRepository } from './history.repository.js';
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

interface Pending {
  device_id: string;
  property: string;
  type: SeriesType;
  t: number;
  v: HistoryValue | null;
}

interface Last {
  v: HistoryValue;
  t: number;
}

const key = (deviceId: string, property: string) => `${deviceId}\u0000${property}`;

/**
 * docs/history.md#recording: notes each state message's numeric, binary and enum values on the
 * stream's path (a map look-up and an array push per value) and writes them in batches, one
 * transaction each, away from it.
 */
export class HistoryRecorder implements DeviceListener {
  private buffer: Pending[] = [];
  private gaps: { device_id: string; t: number }[] = [];
  /** The last value recorded of each device's properties. */
  private readonly last = new Map<string, Map<string, Last>>();
  private readonly seriesIds = new Map<string, { id: number; type: SeriesType }>();
  private excludedDevices = new Set<string>();
  /** Excluded properties by device: one look-up per message, no key built per reading. */
  private excludedProperties = new Map<string, Set<string>>();
  /** Nothing is recorded until the exclusions are known. */
  private loaded = false;
  private flushing: Promise<void> | undefined;
  private flushSoon = false;
  private failingSince: number | undefined;
  private dropped = 0;
  private readonly timer: NodeJS.Timeout;
  private readonly now: () => number;

  constructor(private readonly options: RecorderOptions) {
    this.now = options.now ?? Date.now;
    this.timer = setInterval(() => void this.flush(), options.flushIntervalMs ?? 1000);
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
    let last = this.last.get(device.id);
    for (const property in state) {
      const list = leaves.get(property);
      if (!list) continue;
      const value = state[property];
      for (const leaf of list) {
        const v = leaf.read(value);
        if (v === undefined) continue;
        if (excluded?.has(leaf.path)) continue;
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
        this.buffer.push({ device_id: device.id, property: leaf.path, type: leaf.type, t, v });
      }
    }
    this.bound();
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
    if (this.buffer.length > max) {
      const excess = this.buffer.length - max;
      this.buffer.splice(0, excess);
      if (this.dropped === 0) {
        this.options.log.warn({ maxBuffered: max }, 'history buffer full: the oldest readings are dropped');
      }
      this.dropped += excess;
    }
    // While writes fail, the interval retries: an immediate retry would spin when it fails at once.
    if (
      !this.flushSoon &&
      this.failingSince === undefined &&
      this.buffer.length >= (this.options.flushRows ?? 5000)
    ) {
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
    if (this.buffer.length === 0 && this.gaps.length === 0) return;
    const batch = this.buffer;
    const gaps = this.gaps;
    this.buffer = [];
    this.gaps = [];
    this.flushing = this.write(batch, gaps)
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
          this.options.log.warn({ err: error, readings: batch.length }, 'history recording failed; retrying');
        }
        this.buffer = [...batch, ...this.buffer];
        this.gaps = [...gaps, ...this.gaps];
        this.bound();
      })
      .finally(() => {
        this.flushing = undefined;
      });
    return this.flushing;
  }

  private async write(batch: Pending[], gaps: { device_id: string; t: number }[]) {
    const missing = new Map<string, Pending>();
    for (const p of batch) {
      const k = key(p.device_id, p.property);
      if (!this.seriesIds.has(k) && !missing.has(k)) missing.set(k, p);
    }
    if (missing.size > 0) {
      const series = await this.options.repository.ensureSeries(
        [...missing.values()].map(({ device_id, property, type }) => ({ device_id, property, type })),
      );
      for (const s of series) this.seriesIds.set(key(s.device_id, s.property), { id: s.id, type: s.type });
    }
    const rows = [];
    let oldest = Number.POSITIVE_INFINITY;
    for (const p of batch) {
      const series = this.seriesIds.get(key(p.device_id, p.property))!;
      // A property whose kind changed keeps its first type; other values are not recorded.
      if (series.type !== p.type) continue;
      rows.push({ series_id: series.id, t: p.t, v: p.v });
      if (p.t < oldest) oldest = p.t;
    }
    // Gaps first: a batch retried after a failure may repeat a gap (harmless), never a reading
    // (unless the history worker stopped between its commit and its answer: stored twice, not lost).
    const store = this.options.store ?? this.options.repository;
    await store.addGaps(gaps);
    await store.insertRaw(rows);
    if (rows.length > 0) this.options.written?.(oldest);
  }

  async close() {
    clearInterval(this.timer);
    await this.flushing;
    await this.flush();
  }
}

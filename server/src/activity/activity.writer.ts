import { randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import { nowIso } from '../storage/columns.js';
import type { ActivityLog, ActivityRecord } from './activity.log.js';
import type { ActivityRepository, ActivityRow } from './activity.repository.js';

export interface WriterOptions {
  repository: Pick<ActivityRepository, 'append'>;
  log: Logger;
  /** How often the buffer is written (ms). */
  flushIntervalMs?: number;
  /** A buffer this long is written at once, without waiting for the interval. */
  flushRows?: number;
  /** Most entries kept while the database is away; beyond it the oldest go, with a warning. */
  maxBuffered?: number;
  now?: () => number;
}

const MAX_DETAIL_CHARS = 4000;
const MAX_TEXT = 512;

let counter = 0;
const tail = randomBytes(4).toString('hex');

/** An id that sorts by time on one instance: hex ms, a counter, and this process's random tail. */
export function activityId(at: number): string {
  counter = (counter + 1) % 0x1000000;
  return `${at.toString(16).padStart(12, '0')}${counter.toString(16).padStart(6, '0')}${tail}`;
}

const cut = (text: string | undefined) => (text === undefined ? null : text.slice(0, MAX_TEXT));

function detailText(detail: Record<string, unknown> | undefined): string {
  if (!detail) return '{}';
  let text: string;
  try {
    text = JSON.stringify(detail);
  } catch {
    return '{}';
  }
  return text.length <= MAX_DETAIL_CHARS
    ? text
    : JSON.stringify({ truncated: text.slice(0, MAX_DETAIL_CHARS) });
}

/** The row an entry is stored as. */
export function toRow(entry: ActivityRecord, now: number): ActivityRow {
  const at = entry.at ?? now;
  return {
    id: activityId(at),
    at: nowIso(at),
    actor_type: entry.actor.type,
    actor_id: entry.actor.id ?? null,
    actor_label: entry.actor.label.slice(0, MAX_TEXT),
    ip: cut(entry.ip),
    client: cut(entry.client),
    kind: entry.kind,
    device_id: entry.device_id ?? null,
    room_id: entry.room_id ?? null,
    detail: detailText(entry.detail),
    result: entry.result,
  };
}

/**
 * docs/activity.md#recording: `record` pushes the entry onto a buffer (no I/O, no copy); the
 * buffer is written once a second, or at once when it holds `flushRows`, one transaction a
 * batch. While the database is away it keeps up to `maxBuffered` rows, dropping the oldest with
 * one warning; `close` writes what is left.
 */
export class ActivityWriter implements ActivityLog {
  /** Entries as given, with the time they were recorded; they become rows when written. */
  private buffer: { entry: ActivityRecord; now: number }[] = [];
  private flushing: Promise<void> | undefined;
  private flushSoon = false;
  private failing = false;
  private dropped = 0;
  private closed = false;
  private readonly timer: NodeJS.Timeout;
  private readonly now: () => number;

  constructor(private readonly options: WriterOptions) {
    this.now = options.now ?? Date.now;
    this.timer = setInterval(() => void this.flush(), options.flushIntervalMs ?? 1000);
    this.timer.unref();
  }

  /** Keeps the entry as given (no copy: the caller hands over a fresh object) until written. */
  record(entry: ActivityRecord): void {
    this.buffer.push({ entry, now: this.now() });
    this.bound();
  }

  /** Rows waiting to be written. */
  get pending(): number {
    return this.buffer.length;
  }

  private bound() {
    const max = this.options.maxBuffered ?? 50_000;
    if (this.buffer.length > max) {
      const excess = this.buffer.length - max;
      this.buffer.splice(0, excess);
      if (this.dropped === 0) {
        this.options.log.warn(
          { maxBuffered: max },
          'activity log buffer full: the oldest entries are dropped',
        );
      }
      this.dropped += excess;
    }
    if (!this.flushSoon && !this.closed && this.buffer.length >= (this.options.flushRows ?? 1000)) {
      this.flushSoon = true;
      setImmediate(() => {
        this.flushSoon = false;
        void this.flush();
      });
    }
  }

  /** Writes what is buffered; a flush already running is awaited first, then the rest written. */
  async flush(): Promise<void> {
    while (this.flushing) await this.flushing;
    if (this.buffer.length === 0) return;
    const batch = this.buffer;
    this.buffer = [];
    const rows = batch.map(({ entry, now }) => toRow(entry, now));
    this.flushing = this.options.repository
      .append(rows)
      .then(() => {
        if (this.failing) this.options.log.info('activity log writing works again');
        if (this.dropped > 0) {
          this.options.log.warn(
            { dropped: this.dropped },
            'activity log entries dropped while the buffer was full',
          );
        }
        this.failing = false;
        this.dropped = 0;
      })
      .catch((error) => {
        if (!this.failing) {
          this.options.log.warn(
            { err: error, entries: batch.length },
            'writing the activity log failed; retrying',
          );
        }
        this.failing = true;
        this.buffer = [...batch, ...this.buffer];
        this.bound();
      })
      .finally(() => {
        this.flushing = undefined;
      });
    return this.flushing;
  }

  /** Stops the timer and writes what is left (one attempt). */
  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.timer);
    await this.flush();
  }
}

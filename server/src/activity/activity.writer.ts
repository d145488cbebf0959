import { randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import { storableText, WriterHealth, writeSplitting } from '../storage/batches.js';
import { nowIso } from '../storage/columns.js';
import { boundedDetail } from './activity.detail.js';
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
  /** After this long without writing (ms), the writer is not healthy (/healthz names `activity`). */
  failAfterMs?: number;
  now?: () => number;
}

const MAX_TEXT = 512;
/** How many entries a warning about entries set aside names (by kind, id and time). */
const NAMED_IN_WARNING = 5;

let counter = 0;
const tail = randomBytes(4).toString('hex');

/** An id that sorts by time on one instance: hex ms, a counter, and this process's random tail. */
export function activityId(at: number): string {
  counter = (counter + 1) % 0x1000000;
  return `${at.toString(16).padStart(12, '0')}${counter.toString(16).padStart(6, '0')}${tail}`;
}

const cut = (text: string | undefined) => (text === undefined ? null : storableText(text.slice(0, MAX_TEXT)));
const storable = (text: string | undefined) => (text === undefined ? null : storableText(text));

/** The row an entry is stored as. */
export function toRow(entry: ActivityRecord, now: number): ActivityRow {
  const at = entry.at ?? now;
  // Text as both databases take it (no U+0000); the detail is JSON, which spells it out.
  return {
    id: activityId(at),
    at: nowIso(at),
    actor_type: entry.actor.type,
    actor_id: storable(entry.actor.id),
    actor_label: storableText(entry.actor.label.slice(0, MAX_TEXT)),
    actor_owner_id: storable(entry.actor.owner?.id),
    actor_owner_label: entry.actor.owner ? storableText(entry.actor.owner.label.slice(0, MAX_TEXT)) : null,
    ip: cut(entry.ip),
    client: cut(entry.client),
    kind: entry.kind,
    device_id: storable(entry.device_id),
    room_id: storable(entry.room_id),
    detail: boundedDetail(entry.detail),
    result: entry.result,
  };
}

/**
 * docs/activity.md#recording: `record` pushes the entry onto a buffer (no I/O, no copy); the
 * buffer is written once a second, or at once when it holds `flushRows`, one transaction a
 * batch. While the database cannot write it keeps up to `maxBuffered` rows, dropping the oldest
 * with one warning; a row the database refuses is set aside (`writeSplitting`), so it never holds
 * back the others. `healthy` turns false after `failAfterMs` without writing; `close` writes what
 * is left.
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
  private readonly health: WriterHealth;

  constructor(private readonly options: WriterOptions) {
    this.now = options.now ?? (() => Date.now());
    this.health = new WriterHealth(options.failAfterMs, () => this.now());
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

  /** False once writing has failed for `failAfterMs` (docs/api.md#health). */
  get healthy(): boolean {
    return this.health.healthy;
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
    this.flushing = this.write(batch).finally(() => {
      this.flushing = undefined;
    });
    return this.flushing;
  }

  private async write(batch: { entry: ActivityRecord; now: number }[]) {
    const { log, repository } = this.options;
    const rows = batch.map(({ entry, now }) => toRow(entry, now));
    const byRow = new Map(rows.map((row, i) => [row, batch[i]!]));
    const outcome = await writeSplitting(rows, (part) => repository.append(part));
    this.health.noteOutcome(outcome);
    if (outcome.written > 0) this.writing();
    this.setAside(outcome.setAside, outcome.error);
    if (outcome.retry.length === 0) return;
    if (!this.failing) {
      log.warn(
        { err: outcome.error, entries: outcome.retry.length },
        'writing the activity log failed; retrying',
      );
    }
    this.failing = true;
    // What was written stays written; the rest waits, before what was recorded since.
    this.buffer = [...outcome.retry.map((row) => byRow.get(row)!), ...this.buffer];
    this.bound();
  }

  /** Writing works (again): what happened meanwhile is logged. */
  private writing() {
    const { log } = this.options;
    if (this.failing) log.info('activity log writing works again');
    if (this.dropped > 0)
      log.warn({ dropped: this.dropped }, 'activity log entries dropped while the buffer was full');
    this.failing = false;
    this.dropped = 0;
  }

  /** Rows the database refused: one warning naming them by kind, id and time (never their actor, address or detail). */
  private setAside(rows: ActivityRow[], error: unknown) {
    if (rows.length === 0) return;
    const code = (error as { code?: unknown } | undefined)?.code;
    this.options.log.warn(
      {
        setAside: rows.length,
        ...(typeof code === 'string' ? { code } : {}),
        entries: rows.slice(0, NAMED_IN_WARNING).map(({ kind, id, at }) => ({ kind, id, at })),
      },
      'activity log entries set aside: the database refused them',
    );
  }

  /** Stops the timer and writes what is left (one attempt). */
  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.timer);
    await this.flush();
  }
}

import type { Logger } from 'pino';
import { bucketize, bucketStart, combine, DAY, FIVE_MINUTES, HOUR } from './history.buckets.js';
import type { BucketTable, HistoryRepository, ProgressName } from './history.repository.js';

export interface Retention {
  /** HISTORY_RAW_DAYS */
  rawDays: number;
  /** HISTORY_5MIN_DAYS */
  fiveMinuteDays: number;
  /** HISTORY_HOURLY_DAYS; undefined keeps hourly buckets forever. */
  hourlyDays: number | undefined;
}

export interface MaintenanceOptions {
  repository: HistoryRepository;
  log: Logger;
  retention: Retention;
  now?: () => number;
  /** Pause between two steps while there is work (ms); 0 runs nothing on its own (tests, bench). */
  intervalMs?: number;
  /** The most time one roll-up step covers. */
  rawSpanMs?: number;
  fiveMinuteSpanMs?: number;
  /** The most time one pruning step deletes. */
  pruneSpanMs?: number;
}

/** Readings this young may still be on their way (the recorder writes once a second). */
const GRACE_MS = 30_000;
/** While idle, look for work this often. */
const IDLE_MS = 30_000;

/**
 * docs/history.md#storage: rolls raw readings up into 5-minute buckets and those into hourly
 * ones, and deletes what is older than its retention, one small step at a time in the
 * background. Each roll-up recomputes whole buckets, so a step run twice gives the same rows.
 */
export class HistoryMaintenance {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<boolean> | undefined;
  private stopped = false;
  private failing = false;
  /** Whether the last step found nothing to do (and nothing was written since). */
  private quiet = false;
  /** Oldest time of readings written behind the roll-up since the last step. */
  private lateFrom: number | undefined;
  private readonly now: () => number;

  constructor(private readonly options: MaintenanceOptions) {
    this.now = options.now ?? Date.now;
  }

  start() {
    if ((this.options.intervalMs ?? 250) > 0) this.schedule(0);
  }

  /** The recorder wrote readings from `oldest` on: buckets from there are recomputed. */
  written(oldest: number) {
    if (this.lateFrom === undefined || oldest < this.lateFrom) this.lateFrom = oldest;
    this.quiet = false;
  }

  /** Nothing to do until something is written or time makes a bucket whole (the worker may end). */
  get idle(): boolean {
    return this.quiet && this.lateFrom === undefined;
  }

  private schedule(delay: number) {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.running = this.step();
      void this.running.then(
        (worked) => {
          this.failing = false;
          this.schedule(worked ? (this.options.intervalMs ?? 250) : IDLE_MS);
        },
        (error) => {
          if (!this.failing) this.options.log.warn({ err: error }, 'history roll-up or pruning failed');
          this.failing = true;
          this.quiet = false;
          this.schedule(IDLE_MS);
        },
      );
    }, delay);
    this.timer.unref();
  }

  /** One small step of whichever job has work; false when none has. */
  async step(): Promise<boolean> {
    this.quiet = false;
    await this.catchUpLate();
    const worked =
      (await this.rollUp('rollup_5m')) ||
      (await this.rollUp('rollup_1h')) ||
      (await this.prune('history_raw')) ||
      (await this.prune('history_5m')) ||
      (await this.prune('history_1h'));
    this.quiet = !worked && this.lateFrom === undefined;
    return worked;
  }

  /** Runs steps until none has work (tests and the benchmark). */
  async runUntilIdle(): Promise<number> {
    let steps = 0;
    while (await this.step()) steps++;
    return steps;
  }

  private async catchUpLate() {
    const late = this.lateFrom;
    if (late === undefined) return;
    this.lateFrom = undefined;
    const { repository } = this.options;
    const five = await repository.progress('rollup_5m');
    if (five !== undefined && late < five) {
      await repository.setProgress('rollup_5m', bucketStart(late, FIVE_MINUTES));
      const hour = await repository.progress('rollup_1h');
      if (hour !== undefined && late < hour)
        await repository.setProgress('rollup_1h', bucketStart(late, HOUR));
    }
  }

  /** Rolls up the next span after the job's mark: raw → 5 min, or 5 min → 1 h. */
  private async rollUp(name: ProgressName): Promise<boolean> {
    const { repository } = this.options;
    const hourly = name === 'rollup_1h';
    const width = hourly ? HOUR : FIVE_MINUTES;
    const source: 'history_raw' | BucketTable = hourly ? 'history_5m' : 'history_raw';
    // Only whole buckets: the 5-minute ones whose readings are all in, the hours whose 5-minute buckets are.
    const limit = hourly
      ? bucketStart((await repository.progress('rollup_5m')) ?? Number.MIN_SAFE_INTEGER, HOUR)
      : bucketStart(this.now() - GRACE_MS, FIVE_MINUTES);
    let mark = await repository.progress(name);
    if (mark === undefined) {
      const oldest = await repository.oldest(source);
      if (oldest === undefined) return false;
      mark = bucketStart(oldest, width);
    }
    if (mark >= limit) return false;
    const span = hourly ? (this.options.fiveMinuteSpanMs ?? DAY) : (this.options.rawSpanMs ?? HOUR);
    let end = Math.min(limit, mark + span);
    let buckets: Parameters<HistoryRepository['upsertBuckets']>[1];
    if (hourly) {
      buckets = groupBy(await repository.bucketsOfAll('history_5m', mark, end), (rows, id) =>
        combine(rows, HOUR).map((b) => ({ ...b, series_id: id })),
      );
    } else {
      buckets = groupBy(await repository.rawOfAll(mark, end), (rows, id) =>
        bucketize(rows, FIVE_MINUTES).map((b) => ({ ...b, series_id: id })),
      );
    }
    if (buckets.length === 0) {
      // Nothing in this span: skip to the next time there is something (or to the limit).
      const next = await repository.oldest(source, end);
      end = next === undefined ? limit : Math.min(limit, Math.max(end, bucketStart(next, width)));
    }
    await repository.upsertBuckets(hourly ? 'history_1h' : 'history_5m', buckets);
    await repository.setProgress(name, end);
    return true;
  }

  /** Deletes the next slice older than the table's retention (and already rolled up). */
  private async prune(table: 'history_raw' | BucketTable): Promise<boolean> {
    const { repository, retention } = this.options;
    const now = this.now();
    let cutoff: number;
    if (table === 'history_raw') {
      cutoff = Math.min(
        now - retention.rawDays * DAY,
        (await repository.progress('rollup_5m')) ?? Number.MIN_SAFE_INTEGER,
      );
    } else if (table === 'history_5m') {
      cutoff = Math.min(
        now - retention.fiveMinuteDays * DAY,
        (await repository.progress('rollup_1h')) ?? Number.MIN_SAFE_INTEGER,
      );
    } else {
      if (retention.hourlyDays === undefined) return false;
      cutoff = now - retention.hourlyDays * DAY;
      // Gaps are kept as long as the longest-kept buckets.
      await repository.deleteBefore('history_gaps', cutoff);
    }
    const oldest = await repository.oldest(table);
    if (oldest === undefined || oldest >= cutoff) return false;
    await repository.deleteBefore(table, Math.min(cutoff, oldest + (this.options.pruneSpanMs ?? 6 * HOUR)));
    return true;
  }

  async stop() {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.running?.catch(() => {});
  }
}

function groupBy<R extends { series_id: number }, B>(
  rows: readonly R[],
  each: (rows: R[], id: number) => B[],
): B[] {
  const out: B[] = [];
  let start = 0;
  for (let i = 1; i <= rows.length; i++) {
    if (i === rows.length || rows[i]!.series_id !== rows[start]!.series_id) {
      out.push(...each(rows.slice(start, i), rows[start]!.series_id));
      start = i;
    }
  }
  return out;
}

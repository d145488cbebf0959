import type { Logger } from 'pino';
import { nowIso } from '../storage/columns.js';
import type { ActivityRepository } from './activity.repository.js';

const DAY = 86_400_000;

export interface RetentionOptions {
  repository: Pick<ActivityRepository, 'prune'>;
  log: Logger;
  /** ACTIVITY_RETENTION_DAYS */
  days: number;
  now?: () => number;
  /** Rows one step deletes. */
  stepRows?: number;
  /** Pause between steps while there is more to delete (ms). */
  stepPauseMs?: number;
  /** Pause after a step that found nothing more (ms). */
  idleMs?: number;
}

/**
 * docs/activity.md#retention: deletes entries older than ACTIVITY_RETENTION_DAYS in the
 * background, a few thousand rows a step with a pause between, so it never holds the database
 * long; then looks again every idleMs.
 */
export class ActivityRetention {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<unknown> | undefined;
  private stopped = false;
  private failing = false;
  private readonly now: () => number;

  constructor(private readonly options: RetentionOptions) {
    this.now = options.now ?? Date.now;
  }

  start(delayMs = 10_000) {
    this.schedule(delayMs);
  }

  /** One step: how many entries it deleted. */
  async step(): Promise<number> {
    const before = nowIso(this.now() - this.options.days * DAY);
    return this.options.repository.prune(before, this.options.stepRows ?? 2000);
  }

  /** Steps until nothing old is left (tests, and a first catch-up). */
  async pruneAll(): Promise<number> {
    let total = 0;
    const limit = this.options.stepRows ?? 2000;
    for (;;) {
      const deleted = await this.step();
      total += deleted;
      if (deleted < limit) return total;
    }
  }

  private schedule(delay: number) {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      const running = this.step().then(
        (deleted) => {
          this.failing = false;
          const more = deleted >= (this.options.stepRows ?? 2000);
          this.schedule(more ? (this.options.stepPauseMs ?? 200) : (this.options.idleMs ?? 10 * 60_000));
        },
        (error) => {
          if (!this.failing) this.options.log.warn({ err: error }, 'pruning the activity log failed');
          this.failing = true;
          this.schedule(this.options.idleMs ?? 10 * 60_000);
        },
      );
      this.running = running;
    }, delay);
    this.timer.unref();
  }

  async stop() {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }
}

import { yieldToEventLoop } from '../storage/batches.js';

/** Waits between two chunks of a history request's work (a page read, a slice encoded). */
export type Pause = () => Promise<void>;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * docs/history.md#limits: history requests together take at most half of the server's thread
 * while they run. Each chunk of their work is followed by a rest as long as it took, shared by all
 * of them, so other requests find the event loop free at least half the time, however many
 * charts are being read and however little CPU the machine leaves Hearth.
 */
export class HistoryPace {
  private restUntil = 0;

  /**
   * The pauses of one request: the time since it last went on counts as its work (on PostgreSQL
   * that includes a page's wait for the database: its requests rest longer than they need).
   */
  lane(): Pause {
    let resumed = performance.now();
    return async () => {
      const now = performance.now();
      this.restUntil = Math.max(this.restUntil, now) + (now - resumed);
      const wait = this.restUntil - now;
      await (wait >= 1 ? sleep(wait) : yieldToEventLoop());
      resumed = performance.now();
    };
  }
}

import fastq, { type queueAsPromised } from 'fastq';
import { HttpError } from '../http/errors.js';
import { TOO_MANY_REQUESTS } from '../http/rate-limit.js';

export interface HistoryLimits {
  running: number;
  waiting: number;
  /** Retry-After of a refusal, in whole seconds from `min` to `max`. */
  retryAfter: { min: number; max: number };
}

/** docs/history.md#limits: how many history requests (charts and exports) one person may have in flight. */
export const HISTORY_LIMITS: HistoryLimits = {
  /** Run at once: a large chart keeps the server's thread busy for some tens of ms in all. */
  running: 2,
  /** Wait for their turn beyond those (a device page asks for its charts together). */
  waiting: 6,
  /**
   * Beyond both: 429, come back in 1 to 3 seconds, at random: the many charts of a refused burst
   * then come back spread over those seconds rather than all at once again.
   */
  retryAfter: { min: 1, max: 3 },
};

/** Gives the turn back; calling it again does nothing. */
export type Release = () => void;

type Turn = () => Promise<void>;

/**
 * Each person's history requests take turns: at most `running` at once, `waiting` more queued in
 * order (fastq, Fastify's own work queue), any further one refused with 429 and Retry-After. One
 * person's burst of charts then costs the others at most their `running` at a time.
 */
export class HistoryQueue {
  private readonly people = new Map<string, queueAsPromised<Turn>>();

  constructor(private readonly limits: HistoryLimits = HISTORY_LIMITS) {}

  /** Resolves with the person's turn once it comes; throws 429 when they have too many in flight. */
  enter(person: string): Promise<Release> {
    let queue = this.people.get(person);
    if (!queue) {
      const created = fastq.promise((turn: Turn) => turn(), this.limits.running);
      // A person with nothing in flight is forgotten.
      created.drain = () => {
        if (this.people.get(person) === created) this.people.delete(person);
      };
      this.people.set(person, created);
      queue = created;
    }
    if (queue.running() + queue.length() >= this.limits.running + this.limits.waiting) {
      const { min, max } = this.limits.retryAfter;
      const seconds = min + Math.floor(Math.random() * (max - min + 1));
      return Promise.reject(
        new HttpError(429, TOO_MANY_REQUESTS, { retry_after: seconds }, { 'retry-after': String(seconds) }),
      );
    }
    const own = queue;
    return new Promise<Release>((admitted) => {
      void own.push(
        () =>
          new Promise<void>((done) => {
            let released = false;
            admitted(() => {
              if (released) return;
              released = true;
              done();
            });
          }),
      );
    });
  }

  /** Requests of the person running and waiting now (tests). */
  inFlight(person: string): number {
    const queue = this.people.get(person);
    return queue ? queue.running() + queue.length() : 0;
  }
}

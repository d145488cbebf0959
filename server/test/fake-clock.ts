import type { Clock } from '../src/shared/clock.js';

/** A clock a test moves forward (alerts: offline for 10 minutes, repeats, quiet hours) while timers stay real. */
export class FakeClock implements Clock {
  constructor(private at = Date.now()) {}

  now(): number {
    return this.at;
  }

  /** Moves time forward by `ms`. */
  advance(ms: number) {
    this.at += ms;
  }

  /** Sets the time (epoch ms or ISO-8601). */
  set(at: number | string) {
    this.at = typeof at === 'string' ? Date.parse(at) : at;
  }
}

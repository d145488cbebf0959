/**
 * What time it is, for code whose rules run on time (alerts: offline for 10 minutes, repeats every
 * 15, quiet hours). Timers stay real; what they compare against comes from here, so a test can
 * move time forward (server/test/fake-clock.ts).
 */
export interface Clock {
  /** Epoch milliseconds. */
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

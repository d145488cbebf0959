import { afterEach, describe, expect, it, vi } from 'vitest';
import { HistoryPace } from './history.pace.js';

afterEach(() => {
  vi.useRealTimers();
});

describe('HistoryPace', () => {
  it('rests after each chunk of history work as long as it took, all requests together', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'setImmediate', 'performance'] });
    const pace = new HistoryPace();
    const first = pace.lane();
    const second = pace.lane();
    const resumed: string[] = [];
    // Both requests work 4 ms (one after the other on the one thread), then pause.
    vi.advanceTimersByTime(4);
    const a = first().then(() => resumed.push(`first at ${performance.now()}`));
    const b = second().then(() => resumed.push(`second at ${performance.now()}`));
    // The first rests 4 ms; the second's 4 ms of work add another 4 (it counted from its own start).
    await vi.advanceTimersByTimeAsync(3);
    expect(resumed).toEqual([]);
    await vi.advanceTimersByTimeAsync(20);
    await Promise.all([a, b]);
    expect(resumed).toEqual(['first at 8', 'second at 12']);
  });

  it('only gives the event loop a turn after a chunk of under a millisecond', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'setImmediate', 'performance'] });
    const pause = new HistoryPace().lane();
    let resumed = false;
    const paused = pause().then(() => {
      resumed = true;
    });
    await vi.advanceTimersByTimeAsync(0);
    await paused;
    expect([resumed, performance.now()]).toEqual([true, 0]);
  });
});

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SendPacer } from './send-pacer.js';

describe('a slider sends when released, at most every 250 ms while dragged (docs/screens.md#device-tile)', () => {
  let sent: number[];
  let pacer: SendPacer<number>;
  beforeEach(() => {
    vi.useFakeTimers();
    sent = [];
    pacer = new SendPacer((value) => sent.push(value));
  });
  afterEach(() => vi.useRealTimers());

  it('sends five key presses as one command, 250 ms after the last', () => {
    for (const value of [11, 12, 13, 14, 15]) {
      pacer.key(value);
      vi.advanceTimersByTime(100);
    }
    expect(sent).toEqual([]);
    vi.advanceTimersByTime(150);
    expect(sent).toEqual([15]);
    vi.advanceTimersByTime(1000);
    expect(sent).toEqual([15]);
  });

  it('sends a key press at once when the slider is left', () => {
    pacer.key(30);
    pacer.release();
    expect(sent).toEqual([30]);
    vi.advanceTimersByTime(300);
    expect(sent).toEqual([30]);
  });

  it('sends a drag at most every 250 ms, its newest value, and the last one when released', () => {
    // A move every 50 ms for a second: 0, 250, 500, 750 and the release at 1000.
    for (let step = 0; step <= 19; step++) {
      pacer.drag(step);
      vi.advanceTimersByTime(50);
    }
    expect(sent).toEqual([0, 4, 9, 14, 19]);
    pacer.release(20);
    expect(sent).toEqual([0, 4, 9, 14, 19, 20]);
  });

  it('sends a click on the track once: its first move is its release', () => {
    pacer.drag(70);
    pacer.release(70);
    vi.advanceTimersByTime(1000);
    expect(sent).toEqual([70]);
  });

  it('sends the same value again once the device has changed meanwhile', () => {
    pacer.release(40);
    pacer.release(40);
    expect(sent).toEqual([40]);
    pacer.reset();
    pacer.release(40);
    expect(sent).toEqual([40, 40]);
  });

  it('drops what waits when cancelled', () => {
    pacer.key(5);
    pacer.cancel();
    vi.advanceTimersByTime(1000);
    expect(sent).toEqual([]);
  });
});

import { describe, expect, it } from 'vitest';
import { segmentAt, type Timeline, timelineValueAt, toTimeline } from './timeline.model.js';

const span = (timeline: Timeline) =>
  timeline.segments.map((s) => [s.start, s.end, s.label, s.colour, s.changedWithin, s.readings]);

describe('timeline model (docs/history.md#timelines)', () => {
  it('raw on/off: each value until the next change, repeats merged, the last until the end', () => {
    const timeline = toTimeline(
      {
        resolution: 'raw',
        bucket_ms: 0,
        points: [
          { t: 1000, v: true },
          { t: 2000, v: true },
          { t: 3000, v: false },
          { t: 4000, v: true },
        ],
      },
      {},
      9000,
    );
    expect(span(timeline)).toEqual([
      [1000, 3000, 'On', 1, false, 2],
      [3000, 4000, 'Off', 0, false, 1],
      [4000, 9000, 'On', 1, false, 1],
    ]);
  });

  it('a gap ends the value and nothing is drawn until the next reading', () => {
    const timeline = toTimeline(
      {
        resolution: 'raw',
        bucket_ms: 0,
        points: [
          { t: 1000, v: true },
          { t: 2000, v: null },
          { t: 5000, v: true },
        ],
      },
      {},
      6000,
    );
    expect(span(timeline)).toEqual([
      [1000, 2000, 'On', 1, false, 1],
      [5000, 6000, 'On', 1, false, 1],
    ]);
    expect(timelineValueAt(timeline, 1500)).toBe('On');
    expect(timelineValueAt(timeline, 3000)).toBe('–');
    expect(timelineValueAt(timeline, 500)).toBe('–');
  });

  it('enum values by their position in the list; an unlisted value still gets a colour', () => {
    const timeline = toTimeline(
      {
        resolution: 'raw',
        bucket_ms: 0,
        points: [
          { t: 0, v: 'breathe' },
          { t: 10, v: 'blink' },
          { t: 20, v: 'party' },
        ],
      },
      { values: ['blink', 'breathe'] },
      30,
    );
    expect(timeline.segments.map((s) => [s.label, s.colour])).toEqual([
      ['breathe', 1],
      ['blink', 0],
      ['party', expect.any(Number)],
    ]);
  });

  it('buckets by their last value; a bucket whose last differs is marked as changed within', () => {
    const timeline = toTimeline(
      {
        resolution: '5m',
        bucket_ms: 300_000,
        points: [
          { t: 0, last: false, count: 1 },
          { t: 300_000, last: true, count: 3 },
          { t: 600_000, last: true, count: 1 },
          { t: 900_000, last: null, count: 0 },
          { t: 1_200_000, last: true, count: 1 },
        ],
      },
      {},
      1_300_000,
    );
    expect(span(timeline)).toEqual([
      [0, 300_000, 'Off', 0, false, 1],
      [300_000, 900_000, 'On', 1, true, 4],
      // After a gap: not a change seen within a bucket; the last lasts at least its bucket.
      [1_200_000, 1_500_000, 'On', 1, false, 1],
    ]);
    expect(timelineValueAt(timeline, 310_000)).toBe('On (changed in this bucket)');
    expect(timelineValueAt(timeline, 610_000)).toBe('On');
  });

  it('finds the segment at a time', () => {
    const timeline = toTimeline(
      {
        resolution: 'raw',
        bucket_ms: 0,
        points: Array.from({ length: 100 }, (_, i) => ({ t: i * 10, v: i % 2 === 0 })),
      },
      {},
      1000,
    );
    expect(segmentAt(timeline, 455)?.start).toBe(450);
    expect(segmentAt(timeline, 995)?.start).toBe(990);
    expect(segmentAt(timeline, 1000)).toBeUndefined();
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bucketize, combine, FIVE_MINUTES, HOUR, MINUTE, type Reading } from './history.buckets.js';

describe('history buckets', () => {
  it('rolls readings into buckets: min, max, mean of the numbers, the last value, how many', () => {
    const readings: Reading[] = [
      { t: 0, v: 20 },
      { t: 10_000, v: null }, // a gap marker counts for nothing
      { t: 20_000, v: 22 },
      { t: 59_999, v: 21 },
      { t: MINUTE, v: 30 },
    ];
    expect(bucketize(readings, MINUTE)).toEqual([
      { t: 0, min: 20, max: 22, mean: 21, last: 21, count: 3 },
      { t: MINUTE, min: 30, max: 30, mean: 30, last: 30, count: 1 },
    ]);
  });

  it('keeps only the last value and the count of a series that is not numbers', () => {
    const readings: Reading[] = [
      { t: 1000, v: 'on' },
      { t: 2000, v: false },
      { t: 3000, v: 'off' },
    ];
    expect(bucketize(readings, MINUTE)).toEqual([
      { t: 0, min: null, max: null, mean: null, last: 'off', count: 3 },
    ]);
  });

  it('weights the means it merges by how many readings each holds', () => {
    const merged = combine(
      [
        { t: 0, min: 10, max: 10, mean: 10, last: 10, count: 3 },
        { t: MINUTE, min: 14, max: 30, mean: 20, last: 30, count: 1 },
      ],
      FIVE_MINUTES,
    );
    expect(merged).toEqual([{ t: 0, min: 10, max: 30, mean: 12.5, last: 30, count: 4 }]);
  });

  it('gives the same wide buckets whether it rolls the readings up at once or in steps', () => {
    const reading = fc.record({
      t: fc.integer({ min: 0, max: 6 * HOUR }),
      v: fc.oneof(fc.integer({ min: -1000, max: 1000 }), fc.constant(null)),
    });
    fc.assert(
      fc.property(fc.array(reading, { maxLength: 200 }), (unsorted) => {
        const readings = [...unsorted].sort((a, b) => a.t - b.t);
        const stepwise = combine(combine(bucketize(readings, MINUTE), FIVE_MINUTES), HOUR);
        const atOnce = bucketize(readings, HOUR);
        expect(stepwise.map(({ mean, ...rest }) => rest)).toEqual(atOnce.map(({ mean, ...rest }) => rest));
        stepwise.forEach((bucket, i) => {
          if (bucket.mean === null) expect(atOnce[i]?.mean).toBeNull();
          else expect(bucket.mean).toBeCloseTo(atOnce[i]?.mean ?? Number.NaN, 9);
        });
      }),
    );
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ReadingBatch, rowsOf } from './history.batch.js';
import type { RawRow } from './history.repository.js';

const value = fc.oneof(fc.double({ noNaN: true }), fc.boolean(), fc.string({ maxLength: 8 }));
const reading = fc.record({ series_id: fc.nat(1000), t: fc.nat(), v: value });
/** Readings added to one batch, then the oldest dropped, then another batch appended. */
const steps = fc.record({
  first: fc.array(reading, { maxLength: 600 }),
  drop: fc.nat(700),
  second: fc.array(reading, { maxLength: 300 }),
});

const batchOf = (rows: readonly RawRow[]) => {
  const batch = new ReadingBatch();
  for (const row of rows) batch.push(row.series_id, row.t, row.v);
  return batch;
};

describe('a batch of readings by columns', () => {
  it('gives back what was pushed, in order, after dropping the oldest and appending another', () => {
    fc.assert(
      fc.property(steps, ({ first, drop, second }) => {
        const batch = batchOf(first);
        batch.dropOldest(drop);
        batch.append(batchOf(second));
        const expected = [...first.slice(Math.min(drop, first.length)), ...second];
        expect(batch.length).toBe(expected.length);
        expect(rowsOf(batch.columns())).toEqual(expected);
        expect(batch.oldest()).toBe(expected.length ? Math.min(...expected.map((r) => r.t)) : Infinity);
      }),
    );
  });

  it('hands over copies: the batch keeps its readings for a retry after its columns were sent', () => {
    const batch = batchOf([{ series_id: 1, t: 10, v: 'eco' }]);
    const sent = batch.columns();
    structuredClone(sent, { transfer: [sent.series.buffer, sent.t.buffer] });
    expect(rowsOf(batch.columns())).toEqual([{ series_id: 1, t: 10, v: 'eco' }]);
  });
});

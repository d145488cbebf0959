import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { GapMerge, withGaps } from './history.gaps.js';

interface Entry {
  t: number;
  v: number | null;
}

const marker = (t: number): Entry => ({ t, v: null });

/**
 * `list` as withGaps reads it, refusing to be read more than a few times per item: a loop that
 * does not move on through the gaps throws here instead of spinning (a synchronous endless loop
 * would hang the test runner, whose time-out cannot interrupt it).
 */
function bounded<T>(list: readonly T[]): readonly T[] {
  let reads = 0;
  const most = 4 * list.length + 8;
  return new Proxy(list, {
    get(target, key, receiver) {
      if (typeof key === 'string' && /^\d+$/.test(key) && ++reads > most) {
        throw new Error(`withGaps read its ${list.length} gaps ${reads} times: it does not finish`);
      }
      return Reflect.get(target, key, receiver);
    },
  });
}

const answer = (entries: Entry[], gaps: number[]) => withGaps(bounded(entries), bounded(gaps), marker);
const values = (list: Entry[]) => list.map((e) => (e.v === null ? `gap@${e.t}` : e.v));

describe('withGaps', () => {
  it('answers two gaps in a row with no reading between them once, and finishes', () => {
    // Two starts of Hearth with nothing reported between them (docs/history.md#gaps).
    const entries = [
      { t: 10, v: 1 },
      { t: 50, v: 2 },
    ];
    expect(values(answer(entries, [20, 30]))).toEqual([1, 'gap@20', 2]);
    expect(values(answer(entries, [20, 30, 40]))).toEqual([1, 'gap@20', 2]);
    expect(values(answer(entries, [5, 6, 20, 30, 60, 70]))).toEqual([1, 'gap@20', 2, 'gap@60']);
  });

  it('places a gap at an entry’s own time after it, and answers none before the first entry', () => {
    const entries = [
      { t: 10, v: 1 },
      { t: 10, v: 2 },
      { t: 20, v: 3 },
    ];
    expect(values(answer(entries, [10]))).toEqual([1, 2, 'gap@10', 3]);
    expect(values(answer(entries, [1, 2]))).toEqual([1, 2, 3]);
    expect(answer([], [1, 2, 3])).toEqual([]);
  });

  it('over random readings and gaps: finishes, in time order, keeps every reading, and a run of gaps counts once', () => {
    const times = fc
      .array(fc.integer({ min: 0, max: 200 }), { maxLength: 40 })
      .map((t) => t.sort((a, b) => a - b));
    fc.assert(
      fc.property(times, times, (readingTimes, gaps) => {
        const entries = readingTimes.map((t, i) => ({ t, v: i }));
        const out = answer(entries, gaps);
        // In time order.
        for (let i = 1; i < out.length; i++) expect(out[i]!.t).toBeGreaterThanOrEqual(out[i - 1]!.t);
        // Every reading, in its order, and nothing else but gap markers.
        expect(out.filter((e) => e.v !== null)).toEqual(entries);
        // A marker after reading i exactly when some gap lies from it up to the next reading, and
        // at the first of them; never first, never two in a row.
        const expected: (number | string)[] = [];
        entries.forEach((entry, i) => {
          expected.push(entry.v);
          const next = entries[i + 1]?.t ?? Number.POSITIVE_INFINITY;
          const first = gaps.find((g) => g >= entry.t && g < next);
          if (first !== undefined) expected.push(`gap@${first}`);
        });
        expect(values(out)).toEqual(expected);
      }),
      { numRuns: 500 },
    );
  });

  it('gives the same answer fed a page at a time as all at once', () => {
    const times = fc
      .array(fc.integer({ min: 0, max: 200 }), { maxLength: 40 })
      .map((t) => t.sort((a, b) => a - b));
    fc.assert(
      fc.property(times, times, fc.integer({ min: 1, max: 10 }), (readingTimes, gaps, page) => {
        const entries = readingTimes.map((t, i) => ({ t, v: i }));
        const merge = new GapMerge(bounded(gaps), marker);
        const paged: Entry[] = [];
        for (let i = 0; i < entries.length; i += page) paged.push(...merge.add(entries.slice(i, i + page)));
        paged.push(...merge.finish());
        expect(paged).toEqual(withGaps(entries, gaps, marker));
      }),
      { numRuns: 300 },
    );
  });
});

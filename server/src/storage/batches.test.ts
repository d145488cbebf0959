import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { WriterHealth, writeSplitting } from './batches.js';

// writeSplitting against an in-memory stand-in for a table: it refuses a whole write when one of
// its rows is bad, with the error a database gives.
const refused = (code: string) => Object.assign(new Error(`refused (${code})`), { code });

function table(fails: (rows: readonly number[]) => string | undefined) {
  const stored: number[] = [];
  let statements = 0;
  return {
    stored,
    get statements() {
      return statements;
    },
    async write(rows: readonly number[]) {
      statements++;
      const code = fails(rows);
      if (code) throw refused(code);
      stored.push(...rows);
    },
  };
}

describe('writing a batch in halves', () => {
  it('writes every good row once, in order, and sets aside exactly the bad ones, whatever the error', async () => {
    await fc.assert(
      fc.asyncProperty(
        // Up to 64 rows, up to 3 of them bad: one split finds them within its statements.
        fc
          .tuple(fc.nat(64), fc.uniqueArray(fc.nat(63), { maxLength: 3 }))
          .map(([length, at]) => Array.from({ length }, (_, i) => at.includes(i))),
        fc.constantFrom('22021', '23514', 'SQLITE_CONSTRAINT_TRIGGER', 'P0001', 'SQLITE_ERROR'),
        async (bad, code) => {
          const rows = bad.map((_, i) => i);
          const t = table((part) => (part.some((row) => bad[row]) ? code : undefined));
          const outcome = await writeSplitting(rows, (part) => t.write(part));
          const good = rows.filter((row) => !bad[row]);
          const rowAtFault = !['P0001', 'SQLITE_ERROR'].includes(code);
          expect(t.stored).toEqual(good);
          expect(outcome.written).toBe(good.length);
          if (good.length > 0 || rowAtFault) {
            expect(outcome.setAside).toEqual(rows.filter((row) => bad[row]));
            expect(outcome.retry).toEqual([]);
          } else {
            // Nothing written and an error that may be the table's: everything waits.
            expect(outcome.setAside).toEqual([]);
            expect(outcome.retry).toEqual(rows);
          }
        },
      ),
    );
  });

  it('tries a table that takes no row at all a few dozen times a batch, not once a row, and keeps every row', async () => {
    const t = table(() => '42P01');
    const rows = Array.from({ length: 1000 }, (_, i) => i);
    const outcome = await writeSplitting(rows, (part) => t.write(part));
    expect(outcome).toMatchObject({ written: 0, setAside: [], retry: rows });
    expect(t.statements).toBeLessThanOrEqual(48);
  });

  it('gets through many bad rows over several batches, each good row written once', async () => {
    const bad = new Set(Array.from({ length: 40 }, (_, i) => i * 25));
    const t = table((part) => (part.some((row) => bad.has(row)) ? '22021' : undefined));
    let left = Array.from({ length: 1000 }, (_, i) => i);
    const setAside: number[] = [];
    for (let batch = 0; batch < 40 && left.length > 0; batch++) {
      const outcome = await writeSplitting(left, (part) => t.write(part));
      setAside.push(...outcome.setAside);
      left = outcome.retry;
    }
    expect(left).toEqual([]);
    expect(setAside.sort((a, b) => a - b)).toEqual([...bad]);
    expect(t.stored.sort((a, b) => a - b)).toEqual(
      Array.from({ length: 1000 }, (_, i) => i).filter((i) => !bad.has(i)),
    );
  });

  it('tries once more, after the others, a row that failed while its table was away', async () => {
    let calls = 0;
    const stored: number[] = [];
    const outcome = await writeSplitting([1, 2, 3, 4], async (part) => {
      calls++;
      // The whole batch, [1, 2] and [1] fail; then the table is back.
      if (calls <= 3) throw refused('42P01');
      stored.push(...part);
    });
    expect(outcome).toMatchObject({ written: 4, setAside: [], retry: [] });
    expect(stored).toEqual([2, 3, 4, 1]);
  });

  it('leaves the rest to retry, in order, when the database cannot write now', async () => {
    let calls = 0;
    const outcome = await writeSplitting([1, 2, 3, 4, 5, 6], async (part) => {
      calls++;
      if (calls === 1) throw refused('22021');
      if (calls === 3) throw Object.assign(new Error('Connection terminated unexpectedly'), {});
      expect(part).toEqual([1, 2, 3].slice(0, part.length));
    });
    expect(outcome).toMatchObject({ written: 3, setAside: [], retry: [4, 5, 6] });
  });
});

describe("a writer's health", () => {
  it('fails once nothing has been written for failAfterMs, and not for rows that were at fault', () => {
    let now = 0;
    const health = new WriterHealth(60_000, () => now);
    health.noteOutcome({ written: 0, setAside: [1], retry: [], error: refused('22021') });
    now = 120_000;
    expect(health.healthy).toBe(true);
    health.noteOutcome({ written: 0, setAside: [], retry: [1] });
    now += 59_999;
    expect(health.healthy).toBe(true);
    now += 1;
    expect(health.healthy).toBe(false);
    health.noteOutcome({ written: 1, setAside: [], retry: [] });
    expect(health.healthy).toBe(true);
  });
});

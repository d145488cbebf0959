import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_STATE_BYTES, MAX_VALUE_BYTES, mergeBounded, stateBytes } from './state-limits.js';

const size = (value: unknown) => Buffer.byteLength(JSON.stringify(value));

describe('bounded device state', () => {
  it('merges ordinary reports unchanged', () => {
    expect(mergeBounded({ state: 'ON', brightness: 3 }, { brightness: 9, linkquality: 80 })).toEqual({
      state: { state: 'ON', brightness: 9, linkquality: 80 },
      trimmed: [],
    });
  });

  it.each([
    ['a long string is cut to the value limit', { effect: 'é'.repeat(150_000) }, ['effect']],
    [
      'a large object value is dropped',
      { blob: { items: Array.from({ length: 2000 }, (_, i) => i) } },
      ['blob'],
    ],
  ])('%s', (_name, report, trimmed) => {
    const merged = mergeBounded({ state: 'ON' }, report);
    expect(merged.trimmed).toEqual(trimmed);
    for (const value of Object.values(merged.state)) expect(size(value)).toBeLessThanOrEqual(MAX_VALUE_BYTES);
    expect(merged.state.state).toBe('ON');
  });

  it("keeps the whole state within its limit, dropping the report's last keys and keeping earlier values", () => {
    const current = { a: 'x'.repeat(3500), b: 'old' };
    const report = Object.fromEntries(['b', 'c', 'd', 'e', 'f'].map((key) => [key, 'y'.repeat(3500)]));
    const merged = mergeBounded(current, report);
    expect(size(merged.state)).toBeLessThanOrEqual(MAX_STATE_BYTES);
    expect(Object.keys(merged.state)).toEqual(['a', 'b', 'c', 'd']);
    expect(merged.trimmed).toEqual(['f', 'e']);
  });

  it('cuts a state stored too large before the limits existed', () => {
    const stored = Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`k${i}`, 'z'.repeat(3000 + i)]));
    const merged = mergeBounded({}, stored);
    expect(size(merged.state)).toBeLessThanOrEqual(MAX_STATE_BYTES);
    expect(merged.trimmed.length).toBeGreaterThan(0);
  });

  it('measures numbers as JSON writes them, at every power of ten', () => {
    const numbers = [0, -0, 0.5, -2.25, 1e21, -1e-7, Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER];
    for (let power = 1; power <= 1e22; power *= 10)
      numbers.push(power - 1, power, power + 1, -power, 1 - power);
    for (const n of numbers) expect(stateBytes(mergeBounded({}, { n }).state)).toBe(size({ n }));
  });

  it('keeps every state within the limit over any run of reports, measuring only what changed', () => {
    const value = fc.oneof(
      fc.integer(),
      fc.double(),
      fc.boolean(),
      fc.string({ unit: 'binary', maxLength: 20 }),
      fc.constant(null),
      fc.string({ maxLength: 40 }),
      fc.string({ unit: 'grapheme', minLength: 500, maxLength: 3000 }),
      fc.string({ minLength: 3000, maxLength: 6000 }),
      fc.dictionary(fc.string({ maxLength: 5 }), fc.string({ maxLength: 900 }), { maxKeys: 4 }),
    );
    const report = fc.dictionary(fc.constantFrom(...'abcdefghijklmnop'.split(''), 'é', '"q"'), value, {
      maxKeys: 6,
    });
    fc.assert(
      fc.property(fc.array(report, { minLength: 1, maxLength: 25 }), (reports) => {
        let state = {};
        for (const next of reports) {
          state = mergeBounded(state, next).state;
          // The running size is the state's real JSON size, and that stays within the limit.
          expect(stateBytes(state)).toBe(size(state));
          expect(size(state)).toBeLessThanOrEqual(MAX_STATE_BYTES);
        }
      }),
      { numRuns: 100 },
    );
  });
});

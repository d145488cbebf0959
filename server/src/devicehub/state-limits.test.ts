import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_STATE_BYTES, MAX_VALUE_BYTES, mergeBounded, mergeInto, stateBytes } from './state-limits.js';

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

  it('merges in place as mergeBounded merges into a copy, over any run of reports', () => {
    const value = fc.oneof(
      fc.integer(),
      fc.double(),
      fc.boolean(),
      fc.constant(null),
      fc.string({ maxLength: 40 }),
      fc.string({ minLength: 3000, maxLength: 6000 }),
      fc.dictionary(fc.string({ maxLength: 5 }), fc.string({ maxLength: 900 }), { maxKeys: 4 }),
    );
    const report = fc.dictionary(fc.constantFrom(...'abcdefghijklmnop'.split(''), 'é'), value, {
      maxKeys: 6,
    });
    fc.assert(
      fc.property(fc.array(report, { minLength: 1, maxLength: 25 }), (reports) => {
        const inPlace: Record<string, unknown> = {};
        let copied = {};
        for (const next of reports) {
          const expected = mergeBounded(copied, next);
          copied = expected.state;
          expect(mergeInto(inPlace, next)).toEqual(expected.trimmed);
          // The same keys in the same order: browsers and the registry get the same JSON.
          expect(JSON.stringify(inPlace)).toBe(JSON.stringify(copied));
          expect(stateBytes(inPlace)).toBe(size(inPlace));
        }
      }),
      { numRuns: 100 },
    );
  });

  it('keeps the state object a device has, and what it had when a report is cut', () => {
    const state: Record<string, unknown> = { state: 'ON', brightness: 3 };
    expect(mergeInto(state, { brightness: 9, linkquality: 80 })).toEqual([]);
    expect(state).toEqual({ state: 'ON', brightness: 9, linkquality: 80 });
    expect(
      mergeInto(state, { state: 'OFF', blob: { items: Array.from({ length: 2000 }, (_, i) => i) } }),
    ).toEqual(['blob']);
    expect(state).toEqual({ state: 'OFF', brightness: 9, linkquality: 80 });
  });

  it('keeps the object a state holds when a report repeats it, and takes one that differs', () => {
    const color = { x: 0.3, y: 0.4 };
    const state: Record<string, unknown> = { color, update: { state: 'idle', versions: [1, 2] } };
    mergeInto(state, { color: { x: 0.3, y: 0.4 }, update: { state: 'idle', versions: [1, 2] } });
    expect(state.color).toBe(color);
    mergeInto(state, { color: { y: 0.4, x: 0.3 } });
    // Another order is another JSON: taken as sent.
    expect(JSON.stringify(state.color)).toBe('{"y":0.4,"x":0.3}');
    mergeInto(state, { update: { state: 'available', versions: [1, 2] } });
    expect(state.update).toEqual({ state: 'available', versions: [1, 2] });
  });
});

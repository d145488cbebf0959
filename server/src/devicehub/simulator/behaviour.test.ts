import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { evolve } from './behaviour.js';

describe('a virtual device over time', () => {
  it('never sets off a leak, smoke or tamper alarm by itself, whatever the dice say', () => {
    fc.assert(
      fc.property(
        fc.array(fc.double({ min: 0, max: 0.999, noNaN: true }), { minLength: 1, maxLength: 500 }),
        (rolls) => {
          let i = 0;
          const random = () => rolls[i++ % rolls.length]!;
          const state: Record<string, unknown> = {
            water_leak: false,
            smoke: false,
            tamper: false,
            battery: 80,
          };
          for (let step = 0; step < 200; step++) evolve(state, random);
          expect(state).toMatchObject({ water_leak: false, smoke: false, tamper: false });
        },
      ),
    );
  });

  it('clears an alarm that was set, as a real sensor does once the water is gone', () => {
    const state: Record<string, unknown> = { water_leak: true, smoke: true };
    let roll = 0;
    const random = () => (roll++ % 2 === 0 ? 0.9 : 0.1);
    for (let step = 0; step < 10 && (state.water_leak || state.smoke); step++) evolve(state, random);
    expect(state).toEqual({ water_leak: false, smoke: false });
  });

  it('still opens doors and sees people now and then', () => {
    const state: Record<string, unknown> = { contact: true, occupancy: false };
    const seen = new Set<string>();
    let seed = 7;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    for (let step = 0; step < 200; step++) seen.add(JSON.stringify(evolve(state, random)));
    expect(seen.size).toBeGreaterThan(2);
  });
});

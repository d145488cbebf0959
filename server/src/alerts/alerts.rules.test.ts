import { describe, expect, it } from 'vitest';
import { batteryReading, batteryWorse, concernsRules, safetyTripped } from './alerts.rules.js';

describe('the battery rule (docs/alerts.md#rules)', () => {
  it.each([
    ['16 % is fine', { battery: 16 }, false, false],
    ['15 % is low (at the line)', { battery: 15 }, false, true],
    ['once low, 19 % is still low', { battery: 19 }, true, true],
    ['once low, 20 % clears it', { battery: 20 }, true, false],
    ['battery_low: true is low whatever the level', { battery: 80, battery_low: true }, false, true],
    ['battery_low: false alone is fine', { battery_low: false }, true, false],
  ])('%s', (_name, state, wasLow, low) => {
    expect(batteryReading(state, 15, wasLow)?.low).toBe(low);
  });

  it('says nothing when the state carries no battery, or the rule is off', () => {
    expect(batteryReading({ temperature: 20 }, 15, false)).toBeUndefined();
    expect(batteryReading({ battery: 3 }, null, false)).toBeUndefined();
  });

  it('a level wobbling around the line stays one low reading from 15 down to the clear at 20', () => {
    let low = false;
    const changes: boolean[] = [];
    for (const level of [16, 15, 16, 14, 17, 15, 19, 18, 20, 19, 16]) {
      const reading = batteryReading({ battery: level }, 15, low);
      if (reading && reading.low !== low) {
        low = reading.low;
        changes.push(low);
      }
    }
    expect(changes).toEqual([true, false]);
  });

  it('gets worse 5 points below what people were told', () => {
    expect(batteryWorse(14, 10)).toBe(false);
    expect(batteryWorse(14, 9)).toBe(true);
    expect(batteryWorse(undefined, 3)).toBe(false);
  });
});

describe('the safety rule', () => {
  it('trips on the alarms that are true, in a fixed order', () => {
    expect(safetyTripped({ tamper: true, water_leak: true, smoke: false })).toEqual(['water_leak', 'tamper']);
    expect(safetyTripped({ water_leak: false })).toEqual([]);
  });

  it('looks only at messages carrying a watched property', () => {
    expect(concernsRules({ temperature: 21, linkquality: 80 })).toBe(false);
    expect(concernsRules({ water_leak: false })).toBe(true);
    expect(concernsRules({ battery: 90 })).toBe(true);
  });
});

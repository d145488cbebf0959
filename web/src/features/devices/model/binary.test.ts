import { describe, expect, it } from 'vitest';
import { binaryLabel, binaryTone, readBinary } from './binary.js';

describe('readBinary (docs/strings.md#validation-rules)', () => {
  it.each(['true', 'on', '1', 'yes', 'enabled', 'detected', 'active', 'closed', 'present', ' ON ', 'Closed'])(
    'reads %j as true',
    (text) => {
      expect(readBinary(text)).toBe(true);
    },
  );
  it.each(['false', 'off', '0', 'no', 'disabled', 'clear', 'inactive', 'open', 'absent', 'OFF'])(
    'reads %j as false',
    (text) => {
      expect(readBinary(text)).toBe(false);
    },
  );
  it.each([
    [true, true],
    [false, false],
    [1, true],
    [0, false],
    ['maybe', null],
    ['', null],
    [null, null],
    [undefined, null],
    [{}, null],
    [Number.NaN, null],
  ])('reads %j as %j', (value, expected) => {
    expect(readBinary(value)).toBe(expected);
  });
});

describe('binary labels and tones (docs/strings.md#constants-and-limits)', () => {
  it.each([
    ['contact', 'Closed', 'Open'],
    ['open', 'Open', 'Closed'],
    ['closed', 'Closed', 'Open'],
    ['occupancy', 'Detected', 'Clear'],
    ['motion', 'Detected', 'Clear'],
    ['presence', 'Detected', 'Clear'],
    ['water_leak', 'Leak', 'Dry'],
    ['leak', 'Leak', 'Dry'],
    ['moisture', 'Leak', 'Dry'],
    ['smoke', 'Smoke', 'Clear'],
    ['tamper', 'Tamper', 'Secure'],
    ['battery_low', 'Low', 'OK'],
    ['low_battery', 'Low', 'OK'],
    ['child_lock', 'On', 'Off'],
  ])('%s reads %s / %s', (property, whenTrue, whenFalse) => {
    expect(binaryLabel(property, true)).toBe(whenTrue);
    expect(binaryLabel(property, false)).toBe(whenFalse);
  });

  it.each([
    ['tamper', true, 'danger'],
    ['smoke', true, 'danger'],
    ['water_leak', true, 'danger'],
    ['leak', true, 'danger'],
    ['battery_low', true, 'warning'],
    ['contact', true, 'success'],
    ['contact', false, 'neutral'],
    ['smoke', false, 'neutral'],
    ['battery_low', false, 'neutral'],
    ['occupancy', true, 'neutral'],
  ] as const)('%s = %s has tone %s', (property, value, tone) => {
    expect(binaryTone(property, value)).toBe(tone);
  });
});

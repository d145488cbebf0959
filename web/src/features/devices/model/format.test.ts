import { describe, expect, it } from 'vitest';
import {
  clockTime,
  formatLastSeen,
  formatMetricNumber,
  formatNumber,
  humanise,
  parseTime,
  truncateDescription,
} from './format.js';

describe('formatNumber (docs/strings.md#constants-and-limits)', () => {
  it.each([
    [100, '100'],
    [254.6, '255'],
    [1234.4, '1234'],
    [99.94, '99.9'],
    [21.5, '21.5'],
    [21, '21'],
    [21.04, '21'],
    [0, '0'],
    [-5.25, '-5.3'],
    [-150.4, '-150'],
  ])('%d → %s', (value, expected) => {
    expect(formatNumber(value)).toBe(expected);
  });
});

describe('formatMetricNumber (docs/strings.md#constants-and-limits)', () => {
  it.each([
    [21, '21'],
    [21.456, '21.46'],
    [21.5, '21.5'],
    [1013.251, '1013.25'],
    [0.005, '0.01'],
    [255, '255'],
  ])('%d → %s', (value, expected) => {
    expect(formatMetricNumber(value)).toBe(expected);
  });
});

describe('truncateDescription (docs/strings.md#constants-and-limits)', () => {
  it('keeps 140 characters as they are', () => {
    const text = 'a'.repeat(140);
    expect(truncateDescription(text)).toBe(text);
  });
  it('cuts 141 characters to 139 plus an ellipsis', () => {
    const result = truncateDescription('b'.repeat(141));
    expect(result).toBe(`${'b'.repeat(139)}…`);
    expect(result).toHaveLength(140);
  });
});

describe('formatLastSeen (docs/strings.md#constants-and-limits)', () => {
  const now = Date.parse('2026-11-22T12:00:00Z');
  const ago = (ms: number) => now - ms;
  const s = 1000;
  const m = 60 * s;
  const h = 60 * m;
  const d = 24 * h;
  it.each([
    [null, 'never'],
    [ago(0), 'just now'],
    [ago(19_999), 'just now'],
    [ago(20 * s), '20s ago'],
    [ago(59 * s), '59s ago'],
    [ago(60 * s), '1m ago'],
    [ago(59 * m + 59 * s), '59m ago'],
    [ago(60 * m), '1h ago'],
    [ago(47 * h + 59 * m), '47h ago'],
    [ago(48 * h), '2d ago'],
    [ago(13 * d + 23 * h), '13d ago'],
    [now + 5 * s, 'just now'],
  ])('%s → %s', (at, expected) => {
    expect(formatLastSeen(at, now)).toBe(expected);
  });
  it('shows the date from 14 days on', () => {
    const at = ago(14 * d);
    expect(formatLastSeen(at, now)).toBe(new Date(at).toLocaleDateString());
  });
});

describe('parseTime and humanise', () => {
  it.each([
    ['2026-11-22T12:00:00Z', Date.parse('2026-11-22T12:00:00Z')],
    [1_700_000_000_000, 1_700_000_000_000],
    ['not a date', null],
    ['', null],
    [null, null],
  ])('parseTime(%j) → %j', (value, expected) => {
    expect(parseTime(value)).toBe(expected);
  });
  it.each([
    ['water_leak', 'Water leak'],
    ['linkquality', 'Linkquality'],
    ['color-temp', 'Color temp'],
  ])('humanise(%s) → %s', (name, expected) => {
    expect(humanise(name)).toBe(expected);
  });
});

describe('clockTime', () => {
  it.each([
    [new Date(2026, 0, 5, 9, 7).toISOString(), '09:07'],
    [new Date(2026, 6, 1, 23, 59, 59).toISOString(), '23:59'],
    ['not a date', ''],
  ])('%s is %s in local time', (iso, expected) => {
    expect(clockTime(iso)).toBe(expected);
  });
});

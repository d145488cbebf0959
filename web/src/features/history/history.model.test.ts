import { testCapability } from '@hearth/contracts/testing';
import { describe, expect, it } from 'vitest';
import { chartProperties, shownFrom, toChartData } from './history.model.js';

const cap = testCapability;

describe('history chart model', () => {
  it('lists numbers, on/off, enums and composite leaves; not text', () => {
    const properties = chartProperties([
      cap('temperature', 'numeric', { unit: '°C' }),
      cap('state', 'binary'),
      cap('effect', 'enum', { enum: ['blink', 'breathe'] }),
      cap('label', 'text'),
      cap('color', 'composite', { metadata: { features: ['x', 'y'] } }),
    ]);
    expect(properties.map((p) => [p.path, p.type])).toEqual([
      ['temperature', 'number'],
      ['state', 'boolean'],
      ['effect', 'string'],
      ['color.x', 'number'],
      ['color.y', 'number'],
    ]);
  });

  const cases: [string, Parameters<typeof toChartData>[0], ReturnType<typeof toChartData>][] = [
    [
      'raw readings, a gap as null',
      {
        resolution: 'raw',
        points: [
          { t: 1000, v: 1 },
          { t: 2000, v: null },
          { t: 3000, v: 2 },
        ],
      },
      { x: [1, 2, 3], y: [1, null, 2], min: undefined, max: undefined },
    ],
    [
      'on/off as 1 and 0',
      {
        resolution: 'raw',
        points: [
          { t: 1000, v: true },
          { t: 2000, v: false },
        ],
      },
      { x: [1, 2], y: [1, 0], min: undefined, max: undefined },
    ],
    [
      'numeric buckets: the mean, with min and max; a gap bucket as null',
      {
        resolution: '5m',
        points: [
          { t: 0, min: 1, max: 3, mean: 2, last: 3, count: 2 },
          { t: 100_000, min: null, max: null, mean: null, last: null, count: 0 },
        ],
      },
      { x: [0, 100], y: [2, null], min: [1, null], max: [3, null] },
    ],
  ];
  it.each(cases)('%s', (_name, answer, expected) => {
    expect(toChartData(answer)).toEqual(expected);
  });

  it('draws an enum value by its position', () => {
    expect(
      toChartData(
        { resolution: '1h', points: [{ t: 0, last: 'breathe', count: 4 }] },
        { values: ['blink', 'breathe'] },
      ).y,
    ).toEqual([1]);
  });
});

describe('where a view starts (shownFrom)', () => {
  const HOUR = 3_600_000;
  const to = 1_700_000_000_000;
  const day = { preset: '24h' as const, from: to - 24 * HOUR, to };
  it.each([
    ['nothing recorded: the whole day', day, [null, null], day.from],
    ['readings from the start of the day on: the whole day', day, [day.from + HOUR, null], day.from],
    // Two hours of readings: from just before the first (a twentieth of two hours = 6 min).
    ['a fresh install, two hours old', day, [to - 2 * HOUR, to - HOUR], to - 2 * HOUR - HOUR / 10],
    ['a few seconds of readings: a second before them', day, [to - 5000], to - 6000],
    ['the earliest chart decides', day, [to - HOUR, to - 3 * HOUR, null], to - 3 * HOUR - (3 * HOUR) / 20],
    [
      '7 d keeps its week',
      { preset: '7d' as const, from: to - 7 * 24 * HOUR, to },
      [to - HOUR],
      to - 7 * 24 * HOUR,
    ],
    ['a zoom keeps its range', { preset: undefined, from: to - 24 * HOUR, to }, [to - HOUR], to - 24 * HOUR],
  ] as const)('%s', (_name, range, firsts, expected) => {
    expect(shownFrom(range, firsts)).toBe(expected);
  });
});

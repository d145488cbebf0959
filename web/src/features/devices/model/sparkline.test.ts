import { describe, expect, it } from 'vitest';
import type { CapabilityReading } from './device.types.js';
import { sparklineMetric, sparklinePath, sparklinePoints } from './sparkline.js';

const read = { readOnly: true, write: false, set: false };
const set = { readOnly: false, write: true, set: true };
const num = (property: string, extra: Partial<CapabilityReading> = {}): CapabilityReading => ({
  property,
  name: property,
  kind: 'numeric',
  access: read,
  ...extra,
});

describe('sparklineMetric (docs/history.md#sparklines)', () => {
  const cases: [string, CapabilityReading[], string | null][] = [
    ['a climate sensor: temperature before humidity', [num('humidity'), num('temperature')], 'temperature'],
    ['a plug: power before energy and voltage', [num('voltage'), num('energy'), num('power')], 'power'],
    ['a humidity-only sensor', [num('linkquality'), num('humidity')], 'humidity'],
    ['a door sensor: its battery', [num('voltage'), num('battery'), num('device_temperature')], 'battery'],
    [
      'else the first read-only number that is not radio or diagnostics',
      [num('linkquality'), num('flow')],
      'flow',
    ],
    ['a settable number is a control, not a metric', [num('brightness', { access: set })], null],
    ['only the radio: nothing', [num('linkquality')], null],
    ['no numbers: nothing', [{ property: 'state', kind: 'binary', access: set }], null],
  ];
  it.each(cases)('%s', (_name, capabilities, expected) => {
    expect(sparklineMetric(capabilities)?.property ?? null).toBe(expected);
  });

  it('takes the unit from the capability, else the default', () => {
    expect(sparklineMetric([num('power', { unit: 'W' })])).toEqual({
      property: 'power',
      label: 'power',
      unit: 'W',
    });
    expect(sparklineMetric([num('temperature')])?.unit).toBe('°C');
  });
});

describe('sparklinePoints', () => {
  it('raw values and bucket means; gaps and non-numbers as null', () => {
    expect(
      sparklinePoints({
        points: [
          { t: 1, v: 20 },
          { t: 2, v: null },
          { t: 3, min: 1, max: 3, mean: 2, last: 3, count: 2 },
          { t: 4, min: null, max: null, mean: null, last: null, count: 0 },
        ],
      }),
    ).toEqual({ x: [1, 2, 3, 4], y: [20, null, 2, null] });
  });
});

describe('sparklinePath', () => {
  it('scales to the box and its own min–max (higher values higher up)', () => {
    expect(sparklinePath({ x: [0, 50, 100], y: [10, 20, 15] }, 0, 100, 100, 22)).toBe('M0 21L50 1L100 11');
  });
  it('breaks the line at a gap; a lone point is a short dash', () => {
    expect(sparklinePath({ x: [0, 10, 20, 30, 40], y: [1, 2, null, 3, null] }, 0, 40, 40, 12)).toBe(
      'M0 11L10 6M30 1H31',
    );
  });
  it('a flat line in the middle; nothing to draw: empty', () => {
    expect(sparklinePath({ x: [0, 10], y: [5, 5] }, 0, 10, 10, 10)).toBe('M0 5L10 5');
    expect(sparklinePath({ x: [0, 10], y: [null, null] }, 0, 10, 10, 10)).toBe('');
    expect(sparklinePath({ x: [], y: [] }, 0, 10, 10, 10)).toBe('');
  });
});

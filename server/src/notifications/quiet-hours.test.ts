import { describe, expect, it } from 'vitest';
import { quietUntil } from './quiet-hours.js';

const at = (iso: string) => Date.parse(iso);
const NIGHT = { start: '22:00', end: '07:00' };

describe('quiet hours (docs/alerts.md#delivery)', () => {
  it.each([
    ['21:59 is before them', '2026-03-02T21:59:30Z', NIGHT, null],
    [
      '22:00 starts them, until 07:00 the next day',
      '2026-03-02T22:00:00Z',
      NIGHT,
      '2026-03-03T07:00:00.000Z',
    ],
    ['03:10 is inside, until 07:00', '2026-03-03T03:10:12Z', NIGHT, '2026-03-03T07:00:00.000Z'],
    ['07:00 ends them', '2026-03-03T07:00:00Z', NIGHT, null],
    [
      'a span within one day',
      '2026-03-03T13:30:00Z',
      { start: '13:00', end: '14:00' },
      '2026-03-03T14:00:00.000Z',
    ],
    ['equal start and end are none', '2026-03-03T13:30:00Z', { start: '13:00', end: '13:00' }, null],
    ['none at all', '2026-03-03T13:30:00Z', null, null],
  ])('%s', (_name, now, quiet, until) => {
    const answer = quietUntil(quiet, at(now), 'UTC');
    expect(answer === null ? null : new Date(answer).toISOString()).toBe(until);
  });

  it('reads the times in the household time zone', () => {
    // 21:30 UTC is 22:30 in Berlin (winter): inside, until 07:00 Berlin = 06:00 UTC.
    const until = quietUntil(NIGHT, at('2026-01-10T21:30:00Z'), 'Europe/Berlin');
    expect(until === null ? null : new Date(until).toISOString()).toBe('2026-01-11T06:00:00.000Z');
    expect(quietUntil(NIGHT, at('2026-01-10T20:30:00Z'), 'Europe/Berlin')).toBeNull();
  });
});

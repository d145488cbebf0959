import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  cronProblem,
  cronRule,
  instantsOf,
  nextCronFire,
  nextRunOf,
  nextSunFire,
  sunIsUp,
  timePattern,
  wallOf,
} from './automations.schedule.js';

// docs/automations.md#daylight-saving: cron(8)'s rule, in the zones and on the days of issue 37.

const at = (iso: string) => Date.parse(iso);
const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** Every fire of a trigger from `from` until `until`. */
function fires(pattern: string, from: string, until: string, zone: string): string[] {
  const rule = cronRule(pattern);
  const out: string[] = [];
  let after = at(from);
  for (;;) {
    const next = nextCronFire(rule, after, zone);
    if (next === null || next >= at(until)) return out;
    out.push(iso(next) as string);
    after = next;
  }
}

describe('time triggers at clock changes (fixed-time jobs: once, right after a jump)', () => {
  it.each([
    // Europe/Berlin, 2026-03-29: 02:00 CET becomes 03:00 CEST (01:00 UTC).
    [
      'Europe/Berlin',
      '02:30',
      '2026-03-28T12:00:00Z',
      ['2026-03-29T01:00:00.000Z', '2026-03-30T00:30:00.000Z'],
    ],
    [
      'Europe/Berlin',
      '02:00',
      '2026-03-28T12:00:00Z',
      ['2026-03-29T01:00:00.000Z', '2026-03-30T00:00:00.000Z'],
    ],
    [
      'Europe/Berlin',
      '01:59:59',
      '2026-03-28T12:00:00Z',
      ['2026-03-29T00:59:59.000Z', '2026-03-29T23:59:59.000Z'],
    ],
    [
      'Europe/Berlin',
      '03:00',
      '2026-03-28T12:00:00Z',
      ['2026-03-29T01:00:00.000Z', '2026-03-30T01:00:00.000Z'],
    ],
    // Europe/Berlin, 2026-10-25: 03:00 CEST becomes 02:00 CET (01:00 UTC); 02:30 comes twice.
    [
      'Europe/Berlin',
      '02:30',
      '2026-10-24T12:00:00Z',
      ['2026-10-25T00:30:00.000Z', '2026-10-26T01:30:00.000Z'],
    ],
    [
      'Europe/Berlin',
      '02:00',
      '2026-10-24T12:00:00Z',
      ['2026-10-25T00:00:00.000Z', '2026-10-26T01:00:00.000Z'],
    ],
    [
      'Europe/Berlin',
      '03:00',
      '2026-10-24T12:00:00Z',
      ['2026-10-25T02:00:00.000Z', '2026-10-26T02:00:00.000Z'],
    ],
    // America/New_York, 2026-03-08: 02:00 EST becomes 03:00 EDT (07:00 UTC).
    [
      'America/New_York',
      '02:30',
      '2026-03-07T12:00:00Z',
      ['2026-03-08T07:00:00.000Z', '2026-03-09T06:30:00.000Z'],
    ],
    [
      'America/New_York',
      '02:59:30',
      '2026-03-07T12:00:00Z',
      ['2026-03-08T07:00:00.000Z', '2026-03-09T06:59:30.000Z'],
    ],
    // America/New_York, 2026-11-01: 02:00 EDT becomes 01:00 EST (06:00 UTC); 01:30 comes twice.
    [
      'America/New_York',
      '01:30',
      '2026-10-31T12:00:00Z',
      ['2026-11-01T05:30:00.000Z', '2026-11-02T06:30:00.000Z'],
    ],
    [
      'America/New_York',
      '01:00',
      '2026-10-31T12:00:00Z',
      ['2026-11-01T05:00:00.000Z', '2026-11-02T06:00:00.000Z'],
    ],
  ])('%s %s from %s', (zone, time, from, expected) => {
    const rule = cronRule(timePattern(time));
    const first = nextCronFire(rule, at(from), zone);
    const second = first === null ? null : nextCronFire(rule, first, zone);
    expect([iso(first), iso(second)]).toEqual(expected);
  });

  it('asked from inside the repeated hour, after its first pass, does not fire again that night', () => {
    const rule = cronRule(timePattern('02:30'));
    // 02:10 CET, the second pass (01:10 UTC): 02:30 already ran at 00:30 UTC.
    expect(iso(nextCronFire(rule, at('2026-10-25T01:10:00Z'), 'Europe/Berlin'))).toBe(
      '2026-10-26T01:30:00.000Z',
    );
  });
});

describe('cron expressions at clock changes', () => {
  it('a wildcard job runs normally: not in the skipped hour, in both passes of the repeated one', () => {
    expect(fires('*/30 * * * *', '2026-03-29T00:00:00Z', '2026-03-29T01:31:00Z', 'Europe/Berlin')).toEqual([
      '2026-03-29T00:30:00.000Z', // 01:30 CET
      '2026-03-29T01:00:00.000Z', // 03:00 CEST (02:00 and 02:30 do not exist)
      '2026-03-29T01:30:00.000Z',
    ]);
    expect(fires('*/30 * * * *', '2026-10-24T23:50:00Z', '2026-10-25T02:01:00Z', 'Europe/Berlin')).toEqual([
      '2026-10-25T00:00:00.000Z', // 02:00 CEST
      '2026-10-25T00:30:00.000Z', // 02:30 CEST
      '2026-10-25T01:00:00.000Z', // 02:00 CET
      '2026-10-25T01:30:00.000Z', // 02:30 CET
      '2026-10-25T02:00:00.000Z', // 03:00 CET
    ]);
    expect(fires('0 * * * *', '2026-11-01T04:30:00Z', '2026-11-01T07:01:00Z', 'America/New_York')).toEqual([
      '2026-11-01T05:00:00.000Z', // 01:00 EDT
      '2026-11-01T06:00:00.000Z', // 01:00 EST
      '2026-11-01T07:00:00.000Z', // 02:00 EST
    ]);
  });

  it('a fixed-time cron job follows the time trigger: once after the jump, once in the repeated hour', () => {
    expect(fires('15 2 * * *', '2026-03-07T12:00:00Z', '2026-03-09T12:00:00Z', 'America/New_York')).toEqual([
      '2026-03-08T07:00:00.000Z',
      '2026-03-09T06:15:00.000Z',
    ]);
    expect(fires('0 30 1 * * *', '2026-10-31T12:00:00Z', '2026-11-02T12:00:00Z', 'America/New_York')).toEqual(
      ['2026-11-01T05:30:00.000Z', '2026-11-02T06:30:00.000Z'],
    );
  });

  it('weekdays: 07:30 on weekdays skips the weekend', () => {
    expect(
      fires(
        timePattern('07:30', [1, 2, 3, 4, 5]),
        '2026-06-05T12:00:00Z',
        '2026-06-10T00:00:00Z',
        'Europe/Berlin',
      ),
    ).toEqual(['2026-06-08T05:30:00.000Z', '2026-06-09T05:30:00.000Z']);
    expect(fires(timePattern('09:00', [7]), '2026-06-01T00:00:00Z', '2026-06-15T00:00:00Z', 'UTC')).toEqual([
      '2026-06-07T09:00:00.000Z',
      '2026-06-14T09:00:00.000Z',
    ]);
  });

  it('refuses expressions that never fire, are not 5 or 6 fields, or are not cron', () => {
    const now = at('2026-06-01T00:00:00Z');
    expect(cronProblem('0 0 30 2 *', now)).toBe('never');
    expect(cronProblem('0 0 * *', now)).toBe('fields');
    expect(cronProblem('* * * * * * *', now)).toBe('fields');
    expect(cronProblem('61 * * * *', now)).toBe('syntax');
    expect(cronProblem('* * * * * *', now)).toBeUndefined();
    expect(cronProblem('0 7 * * 1-5', now)).toBeUndefined();
  });

  it('an every-second expression fires each second, never twice in one', () => {
    expect(fires('* * * * * *', '2026-06-01T00:00:00Z', '2026-06-01T00:00:03.5Z', 'Europe/Berlin')).toEqual([
      '2026-06-01T00:00:01.000Z',
      '2026-06-01T00:00:02.000Z',
      '2026-06-01T00:00:03.000Z',
    ]);
  });

  it('property: in any zone over 2026, fixed-time fires are increasing, once per local day, at the time or right after a jump', () => {
    const zones = [
      'Europe/Berlin',
      'America/New_York',
      'Australia/Lord_Howe',
      'America/Santiago',
      'Asia/Kolkata',
    ];
    fc.assert(
      fc.property(
        fc.constantFrom(...zones),
        fc.integer({ min: 0, max: 23 }),
        fc.integer({ min: 0, max: 59 }),
        fc.integer({ min: 0, max: 360 }),
        (zone, hour, minute, day) => {
          const time = `${String(hour).padStart(2, '0')}:${String(minute).padStart(2, '0')}`;
          const rule = cronRule(timePattern(time));
          let after = at('2026-01-01T00:00:00Z') + day * 86_400_000;
          const days = new Set<string>();
          for (let i = 0; i < 5; i++) {
            const next = nextCronFire(rule, after, zone);
            if (next === null) return false;
            if (next <= after) return false;
            const wall = wallOf(next, zone);
            const shown = new Date(wall).toISOString().slice(11, 16);
            // At the time, or at a jump past it (the clock shows later, within 3 hours).
            const wanted = Date.UTC(1970, 0, 1, hour, minute);
            const got = Date.UTC(1970, 0, 1, Number(shown.slice(0, 2)), Number(shown.slice(3, 5)));
            if (shown !== time && !(got > wanted && got - wanted <= 3 * 3_600_000)) return false;
            const date = new Date(wall).toISOString().slice(0, 10);
            if (days.has(date)) return false;
            days.add(date);
            after = next;
          }
          return true;
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('the sun', () => {
  const berlin = { latitude: 52.52, longitude: 13.405 };

  it('sunset with an offset, and sunrise, on the next days', () => {
    const sunset = nextSunFire('sunset', -15, at('2026-06-21T10:00:00Z'), berlin);
    // Berlin's sunset on 21 June 2026 is about 19:33 UTC.
    expect(sunset).toBeGreaterThan(at('2026-06-21T19:10:00Z'));
    expect(sunset).toBeLessThan(at('2026-06-21T19:25:00Z'));
    const sunrise = nextSunFire('sunrise', 0, at('2026-06-21T10:00:00Z'), berlin);
    expect(sunrise).toBeGreaterThan(at('2026-06-22T02:30:00Z'));
    expect(sunrise).toBeLessThan(at('2026-06-22T03:00:00Z'));
    expect(sunIsUp(at('2026-06-21T12:00:00Z'), berlin)).toBe(true);
    expect(sunIsUp(at('2026-06-21T23:00:00Z'), berlin)).toBe(false);
  });

  it('in a polar night the next sunrise is weeks away, not an error', () => {
    const tromso = { latitude: 69.65, longitude: 18.96 };
    const next = nextSunFire('sunrise', 0, at('2026-12-10T12:00:00Z'), tromso);
    expect(next).toBeGreaterThan(at('2027-01-10T00:00:00Z'));
  });

  it('an automation without a location has no next sun fire; its other triggers still count', () => {
    const triggers = [
      { type: 'sun', event: 'sunset' } as const,
      { type: 'time', at: '07:30' } as const,
      { type: 'state', device_id: 'x', property: 'y' } as const,
    ];
    expect(iso(nextRunOf(triggers, at('2026-06-01T00:00:00Z'), 'UTC', null))).toBe(
      '2026-06-01T07:30:00.000Z',
    );
  });

  it('instants of a repeated and a skipped wall time', () => {
    expect(instantsOf(Date.UTC(2026, 9, 25, 2, 30), 'Europe/Berlin').map(iso)).toEqual([
      '2026-10-25T00:30:00.000Z',
      '2026-10-25T01:30:00.000Z',
    ]);
    expect(instantsOf(Date.UTC(2026, 2, 29, 2, 30), 'Europe/Berlin')).toEqual([]);
  });
});

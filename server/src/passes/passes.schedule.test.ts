import type { PassWindow } from '@hearth/contracts';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { inWindow, localTime, nextWindowStart, openings, passState } from './passes.schedule.js';

const at = (iso: string) => Date.parse(iso);
const tuesdayMorning: PassWindow[] = [{ days: ['tue'], from: '09:00', to: '13:00' }];
const BERLIN = 'Europe/Berlin';

describe('weekly windows, read in the household time zone', () => {
  // 2026-11-24 is a Tuesday; Berlin is UTC+1 in November.
  it.each([
    ['2026-11-24T07:59:59.999Z', false, 'a millisecond before 09:00 Berlin'],
    ['2026-11-24T08:00:00.000Z', true, '09:00 Berlin: from is inclusive'],
    ['2026-11-24T11:59:59.999Z', true, 'the last millisecond before 13:00'],
    ['2026-11-24T12:00:00.000Z', false, '13:00 Berlin: to is exclusive'],
    ['2026-11-25T08:30:00.000Z', false, 'Wednesday at 09:30'],
    ['2026-11-17T10:00:00.000Z', true, 'the Tuesday before'],
  ])('%s → %s (%s)', (iso, open) => {
    expect(inWindow(tuesdayMorning, at(iso), BERLIN)).toBe(open);
  });

  it('follows summer time: 09:00 Berlin is 07:00 UTC in June', () => {
    // 2026-06-02 is a Tuesday.
    expect(inWindow(tuesdayMorning, at('2026-06-02T06:59:00Z'), BERLIN)).toBe(false);
    expect(inWindow(tuesdayMorning, at('2026-06-02T07:00:00Z'), BERLIN)).toBe(true);
  });

  it('reads 24:00 as the end of the day', () => {
    const evening: PassWindow[] = [{ days: ['sat'], from: '20:00', to: '24:00' }];
    expect(inWindow(evening, at('2026-11-28T22:59:59Z'), BERLIN)).toBe(true);
    expect(inWindow(evening, at('2026-11-28T23:00:00Z'), BERLIN)).toBe(false);
  });

  it('finds the next start: later today, or on the next day named', () => {
    expect(nextWindowStart(tuesdayMorning, at('2026-11-24T06:00:00Z'), BERLIN)).toBe(
      at('2026-11-24T08:00:00Z'),
    );
    expect(nextWindowStart(tuesdayMorning, at('2026-11-24T12:00:00Z'), BERLIN)).toBe(
      at('2026-12-01T08:00:00Z'),
    );
    expect(nextWindowStart(tuesdayMorning, at('2026-11-24T09:00:00Z'), BERLIN)).toBe(
      at('2026-11-24T09:00:00Z'),
    );
  });

  it('finds the start across a change to summer time (2026-03-29 in Berlin)', () => {
    const sunday: PassWindow[] = [{ days: ['sun'], from: '09:00', to: '10:00' }];
    expect(nextWindowStart(sunday, at('2026-03-28T12:00:00Z'), BERLIN)).toBe(at('2026-03-29T07:00:00Z'));
  });
});

/**
 * docs/passes.md#validity, at the clock changes: a window opens when the clock first shows its
 * `from` and closes when the clock next shows its `to`, once a local day; a clock that jumps over
 * `from` opens it at the jump, one that jumps over the whole window opens it at the jump for its
 * length; a clock going back neither closes it nor opens it again.
 */
describe('weekly windows at the clock changes', () => {
  const QUARTER = 15 * 60_000;
  const LORD_HOWE = 'Australia/Lord_Howe';
  const SYDNEY = 'Australia/Sydney';
  // [zone, what, the window on Sunday, it opens, it closes] (instants UTC, in 2026).
  it.each([
    // Berlin, 2026-03-29: 02:00 CET is 03:00 CEST (01:00Z); the hour 02:00–03:00 is skipped.
    [BERLIN, 'inside the skipped hour', '02:00–02:30', '03-29T01:00', '03-29T01:30'],
    [BERLIN, 'inside the skipped hour, not at its start', '02:15–02:45', '03-29T01:00', '03-29T01:30'],
    [BERLIN, 'the whole skipped hour', '02:00–03:00', '03-29T01:00', '03-29T02:00'],
    [BERLIN, 'straddling the start of the skipped hour', '01:30–02:30', '03-29T00:30', '03-29T01:00'],
    [BERLIN, 'straddling the end of the skipped hour', '02:30–04:00', '03-29T01:00', '03-29T02:00'],
    [BERLIN, 'across the skipped hour', '01:00–05:00', '03-29T00:00', '03-29T03:00'],
    // Berlin, 2026-10-25: 03:00 CEST is 02:00 CET (01:00Z); the hour 02:00–03:00 happens twice.
    [BERLIN, 'inside the repeated hour', '02:00–02:30', '10-25T00:00', '10-25T00:30'],
    [BERLIN, 'straddling the start of the repeated hour', '01:30–02:30', '10-24T23:30', '10-25T00:30'],
    [BERLIN, 'straddling the end of the repeated hour', '02:30–03:30', '10-25T00:30', '10-25T02:30'],
    [BERLIN, 'the whole 25-hour day', '00:00–24:00', '10-24T22:00', '10-25T23:00'],
    // Lord Howe Island moves by 30 minutes: 10-04 02:00 is 02:30 (15:30Z), 04-05 02:00 is 01:30 (15:00Z).
    [LORD_HOWE, 'inside the skipped half hour', '02:00–02:15', '10-03T15:30', '10-03T15:45'],
    [LORD_HOWE, 'the whole skipped half hour', '02:00–02:30', '10-03T15:30', '10-03T16:00'],
    [LORD_HOWE, 'straddling the skipped half hour', '01:45–02:15', '10-03T15:15', '10-03T15:30'],
    [LORD_HOWE, 'inside the repeated half hour', '01:30–01:45', '04-04T14:30', '04-04T14:45'],
    // Sydney, southern hemisphere: summer time from 10-04 02:00 (16:00Z) until 04-05 03:00 (16:00Z).
    [SYDNEY, 'inside the skipped hour', '02:00–02:30', '10-03T16:00', '10-03T16:30'],
    [SYDNEY, 'inside the repeated hour', '02:00–02:30', '04-04T15:00', '04-04T15:30'],
  ])('%s, a Sunday window %s (%s): open from %s until %s, once', (zone, _what, hours, start, end) => {
    const [from, to] = hours.split('–') as [string, string];
    const schedule: PassWindow[] = [{ days: ['sun'], from, to }];
    const opens = at(`2026-${start}Z`);
    const closes = at(`2026-${end}Z`);
    expect(inWindow(schedule, opens - 1, zone)).toBe(false);
    expect(inWindow(schedule, opens, zone)).toBe(true);
    expect(inWindow(schedule, closes - 1, zone)).toBe(true);
    expect(inWindow(schedule, closes, zone)).toBe(false);
    expect(nextWindowStart(schedule, opens - 6 * 3_600_000, zone)).toBe(opens);
    // Every quarter of an hour over the weekend (every edge here is on one): open in one stretch.
    const open: number[] = [];
    for (let t = opens - 30 * 3_600_000; t < closes + 30 * 3_600_000; t += QUARTER) {
      if (inWindow(schedule, t, zone)) open.push(t);
    }
    expect([open[0], open.length]).toEqual([opens, (closes - opens) / QUARTER]);
    expect(open.at(-1)).toBe(closes - QUARTER);
  });

  it.each([
    // Chile changes at midnight: Sunday 2026-09-06 begins at 01:00; Saturday 2026-04-04 has 23:00 twice.
    [['sun'], '00:00', '00:30', '2026-09-06T04:00Z', '2026-09-06T04:30Z'],
    [['sat'], '20:00', '24:00', '2026-09-06T00:00Z', '2026-09-06T04:00Z'],
    [['sat'], '23:00', '23:30', '2026-04-05T02:00Z', '2026-04-05T02:30Z'],
  ] as const)('America/Santiago, %j %s–%s: open [%s, %s)', (days, from, to, start, end) => {
    const schedule: PassWindow[] = [{ days: [...days], from, to }];
    const zone = 'America/Santiago';
    expect(inWindow(schedule, at(start) - 1, zone)).toBe(false);
    expect(inWindow(schedule, at(start), zone)).toBe(true);
    expect(inWindow(schedule, at(end) - 1, zone)).toBe(true);
    expect(inWindow(schedule, at(end), zone)).toBe(false);
    expect(nextWindowStart(schedule, at(start) - 3_600_000, zone)).toBe(at(start));
  });

  it('a pass whose window falls into the skipped hour is scheduled for the jump and works for the window', () => {
    const pass = {
      startsAt: null,
      endsAt: null,
      schedule: [{ days: ['sun'], from: '02:00', to: '02:30' }] as PassWindow[],
      paused: false,
    };
    expect(passState(pass, at('2026-03-28T12:00Z'), BERLIN)).toEqual({
      status: 'scheduled',
      nextStart: at('2026-03-29T01:00Z'),
    });
    for (const now of ['2026-03-29T01:00Z', '2026-03-29T01:15Z', '2026-03-29T01:29:59.999Z']) {
      expect(passState(pass, at(now), BERLIN)).toEqual({ status: 'active', nextStart: null });
    }
    expect(passState(pass, at('2026-03-29T01:30Z'), BERLIN)).toEqual({
      status: 'scheduled',
      nextStart: at('2026-04-05T00:00Z'),
    });
  });
});

describe('pass status', () => {
  const base = { startsAt: null, endsAt: null, schedule: null, paused: false };
  it.each([
    [{ endsAt: at('2026-01-02T00:00:00Z') }, '2026-01-01T12:00:00Z', 'active'],
    [{ endsAt: at('2026-01-02T00:00:00Z') }, '2026-01-02T00:00:00Z', 'expired'],
    [
      { startsAt: at('2026-01-01T13:00:00Z'), endsAt: at('2026-01-02T00:00:00Z') },
      '2026-01-01T12:00:00Z',
      'scheduled',
    ],
    [
      { startsAt: at('2026-01-01T12:00:00Z'), endsAt: at('2026-01-02T00:00:00Z') },
      '2026-01-01T12:00:00Z',
      'active',
    ],
    [{ endsAt: at('2026-01-02T00:00:00Z'), paused: true }, '2026-01-01T12:00:00Z', 'paused'],
    [{ endsAt: at('2026-01-01T00:00:00Z'), paused: true }, '2026-01-01T12:00:00Z', 'expired'],
    // 2026-11-23 is a Monday: the Tuesday window is after the end.
    [{ endsAt: at('2026-11-23T20:00:00Z'), schedule: tuesdayMorning }, '2026-11-23T10:00:00Z', 'expired'],
    [{ schedule: tuesdayMorning }, '2026-11-23T10:00:00Z', 'scheduled'],
    [{ schedule: tuesdayMorning }, '2026-11-24T10:00:00Z', 'active'],
  ])('%j at %s is %s', (times, now, status) => {
    expect(passState({ ...base, ...times }, at(now), BERLIN).status).toBe(status);
  });
});

describe('properties', () => {
  const ZONES = [
    'UTC',
    BERLIN,
    'America/New_York',
    'Asia/Kolkata',
    'Australia/Lord_Howe',
    'Australia/Sydney',
    'America/Santiago',
  ];
  const zones = fc.constantFrom(...ZONES);
  const MINUTE = 60_000;
  const HOUR = 60 * MINUTE;
  const DAY = 24 * HOUR;
  const STEP = 15 * MINUTE;
  const FIRST_DAY = at('2026-01-01T00:00:00Z');
  const LAST_DAY = at('2028-12-31T00:00:00Z');

  /** The test's own reading of a zone's clock: the local date (as UTC midnight) and minute. */
  const clockFormats = new Map<string, Intl.DateTimeFormat>();
  const clockAt = (t: number, zone: string) => {
    let format = clockFormats.get(zone);
    if (!format) {
      format = new Intl.DateTimeFormat('en-US', {
        timeZone: zone,
        hourCycle: 'h23',
        year: 'numeric',
        month: 'numeric',
        day: 'numeric',
        hour: 'numeric',
        minute: 'numeric',
      });
      clockFormats.set(zone, format);
    }
    const p = Object.fromEntries(format.formatToParts(t).map((part) => [part.type, Number(part.value)]));
    return { date: Date.UTC(p.year!, p.month! - 1, p.day!), minute: (p.hour! % 24) * 60 + p.minute! };
  };
  const offsetOf = (t: number, zone: string) => {
    const { date, minute } = clockAt(t, zone);
    return date + minute * MINUTE - t;
  };

  /** The local dates on which the zone's clock changes (2026–2028), each as its UTC midnight. */
  const changeDays = new Map(
    ZONES.map((zone) => {
      const found: number[] = [];
      for (let day = FIRST_DAY; day < LAST_DAY; day += DAY) {
        const before = offsetOf(day, zone);
        if (before === offsetOf(day + DAY, zone)) continue;
        let change = day + STEP;
        while (offsetOf(change, zone) === before) change += STEP;
        found.push(clockAt(change, zone).date);
      }
      return [zone, found] as const;
    }),
  );

  /**
   * A person watching the zone's clock through the local date `date`: the window opens the first
   * time the clock shows `from` or later that day, and closes the next time it shows `to` or later;
   * a clock that has jumped past `to` by then opens it for its length. Every window's edge, offset
   * and change of offset in these zones is a multiple of 15 minutes, so the watcher looks every 15.
   */
  const watched = (window: PassWindow, date: number, zone: string) => {
    const from = minutesOfClock(window.from);
    const to = minutesOfClock(window.to);
    const reading = (t: number) => {
      const clock = clockAt(t, zone);
      return (clock.date - date) / MINUTE + clock.minute;
    };
    let start = date - 15 * HOUR;
    while (reading(start) < from) start += STEP;
    if (reading(start) >= to) return { start, end: start + (to - from) * MINUTE, jumped: true };
    let end = start;
    while (reading(end) < to) end += STEP;
    return { start, end, jumped: false };
  };
  const minutesOfClock = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3));
  const weekdayOf = (date: number) =>
    (['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'] as const)[new Date(date).getUTCDay()]!;
  /** A local date: mostly one whose clock changes, else any. */
  const localDate = zones.chain((zone) =>
    fc
      .oneof(
        {
          weight: 3,
          arbitrary: fc.constantFrom(...(changeDays.get(zone)!.length ? changeDays.get(zone)! : [FIRST_DAY])),
        },
        { weight: 1, arbitrary: fc.integer({ min: 0, max: 1000 }).map((n) => FIRST_DAY + n * DAY) },
      )
      .map((date) => ({ zone, date })),
  );
  const clock = fc.integer({ min: 0, max: 96 }).map((q) => {
    const m = q * 15;
    return `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
  });
  const window = fc
    .record({
      days: fc.subarray(['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const, { minLength: 1 }),
      from: clock,
      to: clock,
    })
    .filter((w) => w.from < w.to && w.from !== '24:00');
  const instant = fc.integer({ min: at('2026-01-01T00:00:00Z'), max: at('2027-12-31T00:00:00Z') });

  it('on a day whose clock does not change: open exactly when the local weekday and time fall in a window', () => {
    fc.assert(
      fc.property(fc.array(window, { minLength: 1, maxLength: 3 }), instant, zones, (schedule, now, zone) => {
        const local = localTime(now, zone);
        const date = Date.UTC(local.year, local.month - 1, local.day);
        fc.pre(!changeDays.get(zone)!.includes(date) && !changeDays.get(zone)!.includes(date - DAY));
        const expected = schedule.some((w) => {
          const [fh, fm] = w.from.split(':').map(Number);
          const [th, tm] = w.to.split(':').map(Number);
          return (
            w.days.includes(local.weekday) && fh! * 60 + fm! <= local.minute && local.minute < th! * 60 + tm!
          );
        });
        expect(inWindow(schedule, now, zone)).toBe(expected);
      }),
      { numRuns: 300 },
    );
  });

  it('a window opens once a local day, as the clock reads it, for its length unless the clock changes within it', () => {
    fc.assert(
      fc.property(localDate, window, ({ zone, date }, shape) => {
        const one: PassWindow = { ...shape, days: [weekdayOf(date)] };
        const expected = watched(one, date, zone);
        // Through the day and the next: open exactly while the watcher has it open, in one stretch.
        const open: number[] = [];
        for (let t = date - 15 * HOUR; t < date + 40 * HOUR; t += STEP) {
          if (inWindow([one], t, zone)) open.push(t);
        }
        expect([open[0], open.length]).toEqual([expected.start, (expected.end - expected.start) / STEP]);
        expect(open.at(-1)).toBe(expected.end - STEP);
        expect(inWindow([one], expected.start - 1, zone)).toBe(false);
        expect(inWindow([one], expected.end - 1, zone)).toBe(true);
        const length = (minutesOfClock(one.to) - minutesOfClock(one.from)) * MINUTE;
        const lasts = expected.end - expected.start;
        const change = offsetOf(expected.end, zone) - offsetOf(expected.start - MINUTE, zone);
        if (expected.jumped) {
          // Wholly in a skipped stretch: it opens at the jump, for its length.
          expect(offsetOf(expected.start - MINUTE, zone)).toBeLessThan(offsetOf(expected.start, zone));
          expect(lasts).toBe(length);
        } else if (change === 0) {
          expect(lasts).toBe(length);
        } else if (change > 0) {
          // The clock skips forward within it: cut short (or not at all, when it ends at the jump).
          expect(lasts).toBeLessThanOrEqual(length);
        } else {
          // The clock goes back within it: the repeated time is added, once.
          expect(lasts).toBeGreaterThanOrEqual(length);
        }
      }),
      { numRuns: 60 },
    );
  });

  it('open at an instant exactly when the openings say so; the next start and end agree with them', () => {
    const near = localDate.chain(({ zone, date }) =>
      fc.integer({ min: -2 * DAY, max: 3 * DAY }).map((shift) => ({ zone, now: date + shift })),
    );
    fc.assert(
      fc.property(fc.array(window, { minLength: 1, maxLength: 3 }), near, (schedule, { zone, now }) => {
        const horizon = now + 8 * DAY;
        const [first] = openings(schedule, now, horizon, zone);
        expect(first).toBeDefined();
        const open = inWindow(schedule, now, zone);
        expect(open).toBe(first!.start <= now);
        expect(nextWindowStart(schedule, now, zone)).toBe(open ? now : first!.start);
        if (!open) {
          expect(inWindow(schedule, first!.start - 1, zone)).toBe(false);
          expect(inWindow(schedule, first!.start, zone)).toBe(true);
        }
        expect(inWindow(schedule, first!.end - 1, zone)).toBe(true);
        if (first!.end < horizon) expect(inWindow(schedule, first!.end, zone)).toBe(false);
      }),
      { numRuns: 200 },
    );
  });

  it('the next start is open, and nothing between now and it is (minute by minute)', () => {
    fc.assert(
      fc.property(fc.array(window, { minLength: 1, maxLength: 2 }), instant, zones, (schedule, now, zone) => {
        const from = Math.ceil(now / 60_000) * 60_000;
        const next = nextWindowStart(schedule, from, zone);
        expect(next).not.toBeNull();
        expect(inWindow(schedule, next!, zone)).toBe(true);
        for (let t = from; t < next!; t += 60_000) expect(inWindow(schedule, t, zone)).toBe(false);
      }),
      { numRuns: 40 },
    );
  });

  it('a pass works only between its start and end, unpaused, inside its windows', () => {
    fc.assert(
      fc.property(
        fc.option(fc.array(window, { minLength: 1, maxLength: 2 }), { nil: null }),
        instant,
        fc.integer({ min: -3, max: 3 }),
        fc.integer({ min: 1, max: 10 }),
        fc.boolean(),
        (schedule, now, startDays, lengthDays, paused) => {
          const startsAt = now + startDays * 86_400_000;
          const endsAt = startsAt + lengthDays * 86_400_000;
          const { status } = passState({ startsAt, endsAt, schedule, paused }, now, 'UTC');
          const works =
            !paused && startsAt <= now && now < endsAt && (!schedule || inWindow(schedule, now, 'UTC'));
          expect(status === 'active').toBe(works);
          if (now >= endsAt) expect(status).toBe('expired');
        },
      ),
      { numRuns: 300 },
    );
  });
});

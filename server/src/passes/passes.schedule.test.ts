import type { PassWindow } from '@hearth/contracts';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { inWindow, localTime, nextWindowStart, passState } from './passes.schedule.js';

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
  const zones = fc.constantFrom('UTC', BERLIN, 'America/New_York', 'Asia/Kolkata', 'Australia/Lord_Howe');
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

  it('open exactly when the local weekday and time fall in a window', () => {
    fc.assert(
      fc.property(fc.array(window, { minLength: 1, maxLength: 3 }), instant, zones, (schedule, now, zone) => {
        const local = localTime(now, zone);
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

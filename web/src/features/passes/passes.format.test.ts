import { describe, expect, it } from 'vitest';
import { describeSchedule, describeValidity, formatTime, guestNotice } from './passes.format.js';
import { testPassInfo } from './test-pass.js';

describe('describeSchedule', () => {
  it.each([
    [[{ days: ['tue'], from: '09:00', to: '13:00' }], 'Tue 09:00–13:00'],
    [[{ days: ['mon', 'tue', 'wed', 'thu', 'fri'], from: '08:00', to: '18:00' }], 'Mon–Fri 08:00–18:00'],
    [[{ days: ['sat', 'sun'], from: '10:00', to: '24:00' }], 'Sat, Sun 10:00–24:00'],
    [
      [{ days: ['mon', 'wed', 'thu', 'fri', 'sun'], from: '07:00', to: '08:00' }],
      'Mon, Wed–Fri, Sun 07:00–08:00',
    ],
    [
      [
        { days: ['tue'], from: '09:00', to: '13:00' },
        { days: ['thu'], from: '14:00', to: '15:30' },
      ],
      'Tue 09:00–13:00; Thu 14:00–15:30',
    ],
  ] as const)('%j → %s', (schedule, text) => {
    expect(describeSchedule(schedule.map((w) => ({ ...w, days: [...w.days] })))).toBe(text);
  });
});

describe('times in the household zone', () => {
  it('reads an instant in the zone, not the browser', () => {
    expect(formatTime('2026-11-24T08:00:00Z', 'Europe/Berlin')).toBe('Tue 24 Nov, 09:00');
    expect(formatTime('2026-11-24T08:00:00Z', 'America/New_York')).toBe('Tue 24 Nov, 03:00');
  });

  it('describes a period and a schedule', () => {
    expect(
      describeValidity(
        {
          starts_at: null,
          ends_at: '2026-11-29T18:00:00Z',
          schedule: [{ days: ['sat'], from: '09:00', to: '12:00' }],
        },
        'UTC',
      ),
    ).toBe('until Sun 29 Nov, 18:00, Sat 09:00–12:00');
  });
});

describe("the guest's notice", () => {
  const info = testPassInfo;
  const now = Date.parse('2026-11-24T08:00:00Z');
  it.each([
    [info({}), null],
    [info({ status: 'expired' }), 'This pass has ended.'],
    [info({ status: 'paused' }), 'This pass is paused. Ask the person who shared it with you to resume it.'],
    [
      info({ status: 'scheduled', starts_at: '2026-11-25T09:00:00Z', next_start: '2026-11-25T09:00:00Z' }),
      'This pass is not valid yet. It starts Wed 25 Nov, 09:00.',
    ],
    [
      info({ status: 'scheduled', next_start: '2026-12-01T09:00:00Z' }),
      'This pass works only at set times. It works again Tue 1 Dec, 09:00.',
    ],
  ])('%j → %s', (pass, text) => {
    expect(guestNotice(pass, now)).toBe(text);
  });
});

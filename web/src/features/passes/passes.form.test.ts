import { describe, expect, it } from 'vitest';
import { coversWholeWeek, type PassDraft, passRequest } from './passes.form.js';

const draft = (fields: Partial<PassDraft>): PassDraft => ({
  label: '',
  rooms: [],
  devices: ['lamp'],
  level: 'control',
  when: 'period',
  startsAt: '',
  endsAt: '2026-11-29T18:00',
  windows: [],
  ...fields,
});

describe('the New pass request', () => {
  it.each([
    [draft({ devices: [] }), { error: 'Choose at least one room or device' }],
    [draft({ endsAt: '' }), { error: 'Choose when the pass ends' }],
    [
      draft({ when: 'weekly', windows: [{ days: [], from: '09:00', to: '13:00' }] }),
      { error: 'Choose at least one day for each window' },
    ],
    [draft({ when: 'weekly', windows: [] }), { error: 'Choose at least one day for each window' }],
  ])('%j → %j', (input, answer) => {
    expect(passRequest(input)).toEqual(answer);
  });

  describe('a pass that never closes ends within a year of its start', () => {
    const now = Date.parse('2026-11-24T12:00:00');
    const everyDay: PassDraft['windows'][number]['days'] = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'];
    const wholeWeek = [{ days: everyDay, from: '00:00', to: '00:00' }];
    const halves = [
      { days: everyDay, from: '00:00', to: '12:00' },
      { days: everyDay, from: '12:00', to: '00:00' },
    ];
    it.each([
      ['every day 00:00–00:00 (midnight), no end', draft({ when: 'weekly', endsAt: '', windows: wholeWeek })],
      ['two windows covering every day, no end', draft({ when: 'weekly', endsAt: '', windows: halves })],
      [
        'every day, ending in two years',
        draft({ when: 'weekly', endsAt: '2028-11-24T12:00', windows: wholeWeek }),
      ],
      ['a period of two years', draft({ endsAt: '2028-11-24T12:00' })],
      [
        'a year and a day from a start next month',
        draft({ startsAt: '2026-12-24T12:00', endsAt: '2027-12-26T12:00' }),
      ],
    ])('%s: refused', (_what, input) => {
      expect(passRequest(input, now)).toEqual({ error: 'Choose an end within a year of the start' });
    });

    it.each([
      [
        'every day, ending within a year',
        draft({ when: 'weekly', endsAt: '2027-11-20T12:00', windows: wholeWeek }),
      ],
      ['a year from a start next month', draft({ startsAt: '2026-12-24T12:00', endsAt: '2027-12-24T12:00' })],
      [
        'every day but the last quarter hour, no end',
        draft({ when: 'weekly', endsAt: '', windows: [{ days: everyDay, from: '00:00', to: '23:45' }] }),
      ],
    ])('%s: sent', (_what, input) => {
      expect(passRequest(input, now)).toHaveProperty('request');
    });

    it('says so beside the weekly windows when they cover the whole week', () => {
      expect(coversWholeWeek(wholeWeek)).toBe(true);
      expect(coversWholeWeek(halves)).toBe(true);
      expect(coversWholeWeek([{ days: everyDay.slice(1), from: '00:00', to: '00:00' }])).toBe(false);
    });
  });

  it('sends the label trimmed, the times as ISO-8601, and leaves out what is empty', () => {
    const result = passRequest(draft({ label: '  Cleaner ', rooms: ['hall'], devices: [] }));
    expect(result).toEqual({
      request: {
        level: 'control',
        label: 'Cleaner',
        rooms: ['hall'],
        ends_at: new Date('2026-11-29T18:00').toISOString(),
      },
    });
  });

  it('sends the weekly windows, with an optional end', () => {
    const result = passRequest(
      draft({ when: 'weekly', endsAt: '', windows: [{ days: ['tue'], from: '09:00', to: '13:00' }] }),
    );
    expect(result).toEqual({
      request: {
        level: 'control',
        devices: ['lamp'],
        schedule: [{ days: ['tue'], from: '09:00', to: '13:00' }],
      },
    });
  });

  it('reads a window ending at 00:00 as ending at midnight', () => {
    const result = passRequest(
      draft({ when: 'weekly', endsAt: '', windows: [{ days: ['sat'], from: '20:00', to: '00:00' }] }),
    );
    expect(result).toMatchObject({ request: { schedule: [{ days: ['sat'], from: '20:00', to: '24:00' }] } });
  });
});

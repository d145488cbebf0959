import { describe, expect, it } from 'vitest';
import { type PassDraft, passRequest } from './passes.form.js';

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

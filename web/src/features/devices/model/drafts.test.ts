import { describe, expect, it } from 'vitest';
import { deviceControls } from './controls.js';
import { draftOf, draftProblem, draftReady, setField, startDraft } from './drafts.js';
import { deviceFrom, rawGroupDevice } from './test-devices.js';

const controlsFor = (state = {}) => deviceControls(deviceFrom(rawGroupDevice(state)));
const [warning, gradient, schedule] = controlsFor();

describe('drafts of composite and list controls', () => {
  it('start from the device value, keeping only settable fields in the form they are sent', () => {
    const [fromState, listFromState, scheduleFromState] = controlsFor({
      warning: { mode: 'fire', level: 'loud', strobe: true, measured: 3 },
      gradient: ['#FF0000', 7],
      weekly_schedule: { dayofweek: [{ day: 'monday' }, {}], boost: { enabled: 'OFF' } },
    });
    expect(startDraft(fromState!)).toEqual({ mode: 'fire', strobe: true });
    expect(startDraft(listFromState!)).toEqual(['#FF0000', undefined]);
    expect(startDraft(scheduleFromState!)).toEqual({
      dayofweek: [{ day: 'monday' }, {}],
      boost: { enabled: false },
    });
  });

  it('start a list with its least number of items, and a composite with nothing set', () => {
    expect(startDraft(gradient!)).toEqual([undefined]);
    expect(startDraft(warning!)).toBeUndefined();
    expect(draftReady(warning!, startDraft(warning!))).toBe(false);
  });

  it('set and unset fields', () => {
    const mode = warning!.fields![0]!;
    const level = warning!.fields![1]!;
    const draft = setField(setField(undefined, mode, 'burglar'), level, 'high');
    expect(draft).toEqual({ mode: 'burglar', level: 'high' });
    expect(setField(draft, level, undefined)).toEqual({ mode: 'burglar' });
    const boost = schedule!.fields![1]!;
    expect(setField({ boost: { enabled: true } }, boost, {})).toEqual({});
  });

  it.each([
    ['a complete warning', warning, { mode: 'burglar', level: 'high', strobe: true, duration: 10 }, null],
    ['a number below its range', warning, { duration: -1 }, 'Duration must be between 0 and 1800'],
    [
      'a number above its range',
      warning,
      { strobe_duty_cycle: 11 },
      'Strobe duty cycle must be between 0 and 10',
    ],
    ['a list item left empty', gradient, ['#FF0000', undefined], 'Hex 2 is required'],
    ['too few items', gradient, [], 'Gradient needs at least 1'],
    ['too many items', gradient, ['a', 'b', 'c', 'd'], 'Gradient takes at most 3'],
    ['an empty composite item', schedule, { dayofweek: [{}] }, 'Day 1 is required'],
    ['a composite item with its field', schedule, { dayofweek: [{ day: 'friday' }] }, null],
  ])('%s: %s', (_label, control, draft, problem) => {
    expect(draftProblem(control!, draft)).toBe(problem);
  });

  it('read a raw value the way the device reports it', () => {
    const strobe = warning!.fields![2]!;
    expect([draftOf(strobe, true), draftOf(strobe, 'maybe')]).toEqual([true, undefined]);
    expect(draftOf(warning!.fields![0]!, 'disco')).toBeUndefined();
  });
});

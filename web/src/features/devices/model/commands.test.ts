import { describe, expect, it } from 'vitest';
import { buildCommand } from './commands.js';
import type { Control, ControlKind } from './controls.js';

const control = (kind: ControlKind, property: string, inputId = 'in-1'): Control => ({
  key: `${kind}:${inputId}`,
  kind,
  inputId,
  property,
  label: property,
  min: 0,
  max: 255,
  step: 1,
  options: [],
  value: null,
});

describe('buildCommand (docs/api.md#devices)', () => {
  it.each([
    [
      'power toggle on',
      control('toggle', 'state'),
      true,
      { input: { id: 'in-1', value: true }, state: { on: true } },
    ],
    [
      'power toggle off',
      control('toggle', 'on'),
      false,
      { input: { id: 'in-1', value: false }, state: { on: false } },
    ],
    [
      'other toggle',
      control('toggle', 'child_lock'),
      true,
      { input: { id: 'in-1', value: true }, state: { child_lock: true } },
    ],
    [
      'brightness up',
      control('slider', 'brightness'),
      128,
      { input: { id: 'in-1', value: 128 }, state: { brightness: 128, on: true } },
    ],
    [
      'brightness 0',
      control('slider', 'brightness'),
      0,
      { input: { id: 'in-1', value: 0 }, state: { brightness: 0, on: false } },
    ],
    [
      'other slider',
      control('slider', 'color_temp'),
      300,
      { input: { id: 'in-1', value: 300 }, state: { color_temp: 300 } },
    ],
    [
      'slider as text',
      control('slider', 'level'),
      '12',
      { input: { id: 'in-1', value: 12 }, state: { level: 12 } },
    ],
    [
      'number',
      control('number', 'countdown'),
      60,
      { input: { id: 'in-1', value: 60 }, state: { countdown: 60 } },
    ],
    [
      'colour',
      control('color', 'color'),
      '#ff8800',
      { input: { id: 'in-1', value: '#FF8800' }, state: { color: '#FF8800', on: true } },
    ],
    [
      'colour object',
      control('color', 'color'),
      { r: 0, g: 0, b: 255 },
      { input: { id: 'in-1', value: '#0000FF' }, state: { color: '#0000FF', on: true } },
    ],
    [
      'effect select',
      control('select', 'effect'),
      'blink',
      { input: { id: 'in-1', value: 'blink' }, state: { effect: 'blink', on: true } },
    ],
    [
      'other select',
      control('select', 'mode'),
      'eco',
      { input: { id: 'in-1', value: 'eco' }, state: { mode: 'eco' } },
    ],
  ])('%s', (_name, built, value, expected) => {
    expect(buildCommand(built, value)).toEqual(expected);
  });

  it.each([
    [
      'text',
      control('text', 'display_text'),
      'Hello',
      { input: { id: 'in-1', value: 'Hello' }, state: { display_text: 'Hello' } },
    ],
    [
      'a composite, whole',
      control('composite', 'warning'),
      { mode: 'burglar', level: 'high', strobe: true, duration: 10 },
      {
        input: { id: 'in-1', value: { mode: 'burglar', level: 'high', strobe: true, duration: 10 } },
        state: { warning: { mode: 'burglar', level: 'high', strobe: true, duration: 10 } },
      },
    ],
    [
      'a list, whole',
      control('list', 'gradient'),
      ['#FF0000', '#0000FF'],
      { input: { id: 'in-1', value: ['#FF0000', '#0000FF'] }, state: { gradient: ['#FF0000', '#0000FF'] } },
    ],
  ])('%s', (_name, built, value, expected) => {
    expect(buildCommand(built, value)).toEqual(expected);
  });

  it.each([
    ['an empty composite', control('composite', 'warning'), {}],
    ['a composite that is no object', control('composite', 'warning'), 'burglar'],
    ['a list that is no list', control('list', 'gradient'), '#FF0000'],
    ['text that is no text', control('text', 'display_text'), 3],
    ['number that is not a number', control('number', 'countdown'), 'abc'],
    ['empty number', control('number', 'countdown'), ''],
    ['slider NaN', control('slider', 'brightness'), Number.NaN],
    ['invalid colour', control('color', 'color'), 'orange'],
  ])('ignores %s', (_name, built, value) => {
    expect(buildCommand(built, value)).toBeNull();
  });
});

import { describe, expect, it } from 'vitest';
import { colourOrDefault, normaliseColour, reportedColour } from './colour.js';

describe('normaliseColour (docs/strings.md#validation-rules)', () => {
  it.each([
    ['#ff8800', '#FF8800'],
    ['#FF8800', '#FF8800'],
    ['ff8800', '#FF8800'],
    ['Aa00bB', '#AA00BB'],
    [' #00ff00 ', '#00FF00'],
    [{ hex: '#0a0b0c' }, '#0A0B0C'],
    [{ hex: '0a0b0c' }, '#0A0B0C'],
    [{ r: 255, g: 136, b: 0 }, '#FF8800'],
    [{ r: 300, g: -20, b: 127.6 }, '#FF0080'],
    [{ r: '16', g: '32', b: '48' }, '#102030'],
    ['#fff', null],
    ['#ff88001', null],
    ['red', null],
    [{ x: 0.3, y: 0.4 }, null],
    [{ r: 1, g: 2 }, null],
    [null, null],
    [42, null],
  ])('%j → %j', (value, expected) => {
    expect(normaliseColour(value)).toBe(expected);
  });

  it('falls back to #FFFFFF', () => {
    expect(colourOrDefault(undefined)).toBe('#FFFFFF');
    expect(colourOrDefault({ hue: 20 })).toBe('#FFFFFF');
    expect(colourOrDefault('00ff00')).toBe('#00FF00');
  });
});

describe('reportedColour (a colour as devices report it)', () => {
  it.each([
    ['#ff8800', '#FF8800'],
    [{ r: 255, g: 136, b: 0 }, '#FF8800'],
    [{ hue: 0, saturation: 100 }, '#FF0000'],
    [{ hue: 120, saturation: 100 }, '#00FF00'],
    [{ hue: 240, saturation: 50 }, '#8080FF'],
    [{ h: 30, s: 100 }, '#FF8000'],
    [{ hue: 400, saturation: 100 }, '#FFAA00'],
    [{ hue: 20, saturation: 0 }, '#FFFFFF'],
    [{ hue: 20 }, null],
    [{ x: 0.3, y: 0.4 }, null],
    [null, null],
  ])('%j → %j', (value, expected) => {
    expect(reportedColour(value)).toBe(expected);
  });
});

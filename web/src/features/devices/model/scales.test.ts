import { describe, expect, it } from 'vitest';
import type { Control } from './controls.js';
import { sliderScale } from './scales.js';

const slider = (property: string, min: number, max: number, unit?: string): Control => ({
  key: property,
  kind: 'slider',
  inputId: property,
  property,
  label: property,
  min,
  max,
  step: 1,
  options: [],
  value: null,
  ...(unit ? { unit } : {}),
});

describe('how a slider shows and sends its value (docs/screens.md#device-tile)', () => {
  it.each([
    // Zigbee brightness 0–254 shows 0–100 % and sends the device's own scale.
    ['brightness', 0, 254, undefined, 254, 100, 100, 254],
    ['brightness', 0, 254, undefined, 127, 50, 50, 127],
    ['brightness', 0, 254, undefined, 3, 1, 1, 3],
    ['brightness_l2', 0, 255, undefined, 0, 0, 0, 0],
    ['brightness', 1, 1000, undefined, 1000, 100, 1, 10],
    // Already a percentage: as it is.
    ['brightness', 0, 100, '%', 40, 40, 40, 40],
    // A colour temperature in mireds shows kelvin (in 50 K steps) and sends mireds.
    ['color_temp', 150, 500, 'mired', 370, 2700, 2700, 370],
    ['color_temp', 150, 500, 'mired', 500, 2000, 6500, 154],
    ['color_temp', 153, 454, undefined, 250, 4000, 4000, 250],
    // A device that takes kelvin: as it is.
    ['color_temp_kelvin', 2000, 6500, 'K', 2700, 2700, 2700, 2700],
    // Anything else: as it is, with its unit.
    ['occupied_heating_setpoint', 5, 30, '°C', 21, 21, 21, 21],
  ])(
    '%s %i–%i %s: device %i shows %i; shown %i sends %i',
    (property, min, max, unit, device, shown, pick, sent) => {
      const scale = sliderScale(slider(property, min, max, unit));
      expect(scale.shown(device)).toBe(shown);
      expect(scale.device(pick)).toBe(sent);
    },
  );

  it.each([
    ['brightness', 0, 254, undefined, { min: 0, max: 100, step: 1, unit: '%' }],
    ['color_temp', 150, 500, 'mired', { min: 2000, max: 6650, step: 50, unit: 'K' }],
    ['occupied_heating_setpoint', 5, 30, '°C', { min: 5, max: 30, step: 1, unit: '°C' }],
    ['position', 0, 100, '%', { min: 0, max: 100, step: 1, unit: '%' }],
  ])('%s %i–%i %s moves within %j', (property, min, max, unit, range) => {
    const { min: low, max: high, step, unit: shownUnit } = sliderScale(slider(property, min, max, unit));
    expect({ min: low, max: high, step, unit: shownUnit }).toEqual(range);
  });
});

import type { Control } from './controls.js';

/**
 * docs/screens.md#device-tile: how a slider shows its value and what it sends. Brightness shows
 * 0–100 % and sends the device's own scale (0–254 for Zigbee); a colour temperature the device
 * takes in mireds shows kelvin (warm on the left) and sends mireds; everything else shows the
 * device's own numbers with their unit.
 */
export interface SliderScale {
  min: number;
  max: number;
  step: number;
  unit: string;
  /** The device's value as the slider shows it. */
  shown(device: number): number;
  /** The shown value as the device takes it. */
  device(shown: number): number;
}

const MIREDS = 1_000_000;
const clamp = (value: number, min: number, max: number) => Math.min(max, Math.max(min, value));
const base = (control: Control) => control.property.toLowerCase();

/** Brightness on a scale of its own (0–254, 0–255, 0–1000), not already in %. */
const isBrightness = (control: Control) =>
  /(^|_)brightness(_|$)/.test(base(control)) &&
  !/(move|step|delta|percent|pct)/.test(base(control)) &&
  control.unit !== '%' &&
  control.max > 100;

/** A colour temperature in mireds (Zigbee2MQTT's `color_temp`, unit `mired`). */
const isMireds = (control: Control) =>
  /(^|_)color_temp(_|$)/.test(base(control)) &&
  !/kelvin/.test(base(control)) &&
  (control.unit === 'mired' || control.unit === undefined) &&
  control.min > 0 &&
  control.max <= 1000;

export function sliderScale(control: Control): SliderScale {
  if (isBrightness(control)) {
    const { min, max } = control;
    return {
      min: min > 0 ? 1 : 0,
      max: 100,
      step: 1,
      unit: '%',
      shown: (value) => Math.round((value * 100) / max),
      device: (shown) => clamp(Math.round((shown * max) / 100), min, max),
    };
  }
  if (isMireds(control)) {
    // 150–500 mireds is 2000–6667 K: the slider moves in 50 K steps within that.
    const step = 50;
    const low = Math.ceil(MIREDS / control.max / step) * step;
    const high = Math.floor(MIREDS / control.min / step) * step;
    return {
      min: low,
      max: high,
      step,
      unit: 'K',
      shown: (mireds) => clamp(Math.round(MIREDS / mireds / step) * step, low, high),
      device: (kelvin) => clamp(Math.round(MIREDS / kelvin), control.min, control.max),
    };
  }
  return {
    min: control.min,
    max: control.max,
    step: control.step,
    unit: control.unit === 'mired' ? 'mired' : (control.unit ?? ''),
    shown: (value) => value,
    device: (shown) => shown,
  };
}

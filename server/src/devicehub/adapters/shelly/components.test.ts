import type { Capability } from '@hearth/contracts';
import { describe, expect, it } from 'vitest';
import { requestedValues } from '../tasmota/request.js';
import { actionOf, callsFor, capabilitiesOf, modelOf, valuesOf } from './components.js';
import {
  dimmer,
  flood,
  humidityTemperature,
  i4,
  plus1pm,
  plus2pmCover,
  pro2pm,
  pro3em,
  rgbcct,
  rgbw,
  smoke,
  wallDisplay,
} from './fixtures/shelly-devices.js';

const shape = (c: Capability): unknown =>
  c.kind === 'composite' && c.features
    ? [c.property, c.type, c.features.map((f) => f.property)]
    : [c.property, c.kind, c.unit ?? null];

describe('Shelly devices in the hub model', () => {
  it.each<[string, Record<string, unknown>, unknown[]]>([
    [
      'a Plus 1PM: its switch, metering and input',
      plus1pm(),
      [
        ['state', 'binary', null],
        ['power', 'numeric', 'W'],
        ['voltage', 'numeric', 'V'],
        ['current', 'numeric', 'A'],
        ['energy', 'numeric', 'Wh'],
        ['device_temperature', 'numeric', '°C'],
        ['input', 'binary', null],
        ['wifi_signal', 'numeric', 'dBm'],
      ],
    ],
    [
      'a Pro 2PM: a switch per channel, buttons as actions',
      pro2pm(),
      [
        ['state_0', 'binary', null],
        ['power_0', 'numeric', 'W'],
        ['voltage_0', 'numeric', 'V'],
        ['current_0', 'numeric', 'A'],
        ['energy_0', 'numeric', 'Wh'],
        ['device_temperature_0', 'numeric', '°C'],
        ['state_1', 'binary', null],
        ['power_1', 'numeric', 'W'],
        ['voltage_1', 'numeric', 'V'],
        ['current_1', 'numeric', 'A'],
        ['energy_1', 'numeric', 'Wh'],
        ['device_temperature_1', 'numeric', '°C'],
        ['action', 'enum', null],
      ],
    ],
    [
      'a calibrated cover with slats',
      plus2pmCover(),
      [
        ['cover', 'cover', ['state', 'command', 'position', 'tilt']],
        ['power', 'numeric', 'W'],
        ['voltage', 'numeric', 'V'],
        ['current', 'numeric', 'A'],
        ['power_factor', 'numeric', null],
        ['frequency', 'numeric', 'Hz'],
        ['energy', 'numeric', 'Wh'],
        ['device_temperature', 'numeric', '°C'],
        ['input_0', 'binary', null],
        ['input_1', 'binary', null],
      ],
    ],
    [
      'a dimmer',
      dimmer(),
      [
        ['light', 'light', ['state', 'brightness', 'transition']],
        ['device_temperature', 'numeric', '°C'],
        ['action', 'enum', null],
      ],
    ],
    [
      'an RGB and a CCT channel, their meters apart',
      rgbcct(),
      [
        ['rgb', 'light', ['state', 'brightness', 'color', 'transition']],
        ['power', 'numeric', 'W'],
        ['voltage', 'numeric', 'V'],
        ['current', 'numeric', 'A'],
        ['cct', 'light', ['state', 'brightness', 'color_temp', 'transition']],
        ['cct_power', 'numeric', 'W'],
        ['cct_voltage', 'numeric', 'V'],
        ['cct_current', 'numeric', 'A'],
      ],
    ],
    [
      'an H&T: temperature, humidity and its battery',
      humidityTemperature(),
      [
        ['temperature', 'numeric', '°C'],
        ['humidity', 'numeric', '%'],
        ['battery', 'numeric', '%'],
        ['battery_voltage', 'numeric', 'V'],
        ['external_power', 'binary', null],
      ],
    ],
    [
      'smoke and flood alarms under the names the safety alerts read',
      { ...smoke(), ...flood() },
      [
        ['battery', 'numeric', '%'],
        ['battery_voltage', 'numeric', 'V'],
        ['smoke', 'binary', null],
        ['smoke_muted', 'binary', null],
        ['water_leak', 'binary', null],
        ['water_leak_muted', 'binary', null],
      ],
    ],
  ])('%s', (_case, status, expected) => {
    expect(capabilitiesOf(modelOf(status)).map(shape)).toEqual(expected);
  });

  it("makes a Wall Display's thermostat a climate: heat or off, its target and what it measures", () => {
    const model = modelOf(wallDisplay());
    expect(capabilitiesOf(model).slice(0, 2).map(shape)).toEqual([
      ['climate', 'climate', ['mode', 'target_temperature', 'current_temperature', 'action']],
      ['state', 'binary', null],
    ]);
    expect(valuesOf(model, wallDisplay()).climate).toEqual({
      mode: 'heat',
      target_temperature: 20.5,
      current_temperature: 19.2,
      action: 'heating',
    });
  });

  it('reads a three-phase meter per phase and in total', () => {
    const properties = capabilitiesOf(modelOf(pro3em())).map((c) => c.property);
    expect(properties).toEqual(
      expect.arrayContaining([
        'power_a',
        'voltage_b',
        'current_c',
        'power',
        'current',
        'apparent_power',
        'energy_a',
        'energy',
        'temperature',
      ]),
    );
    expect(properties).not.toContain('current_n');
  });

  it('reads the values of a status (a composite as a whole)', () => {
    expect(valuesOf(modelOf(plus2pmCover()), plus2pmCover())).toMatchObject({
      cover: { state: 'stopped', position: 62, tilt: 20 },
      power: 0,
      energy: 48.2,
      input_0: false,
    });
    expect(valuesOf(modelOf(rgbw()), rgbw())).toMatchObject({
      rgbw: { state: true, brightness: 70, color: { r: 255, g: 120, b: 0 }, white: 40 },
    });
    expect(valuesOf(modelOf(plus2pmCover(false)), plus2pmCover(false)).cover).toEqual({ state: 'stopped' });
  });

  it('turns input events into actions: on a device with several inputs, with the input id', () => {
    const events = (component: string, event: string) => [{ component, id: 0, event }];
    expect(actionOf(modelOf(dimmer()), events('input:0', 'single_push'))).toBe('single_push');
    expect(actionOf(modelOf(i4()), events('input:2', 'long_push'))).toBe('long_push_2');
    expect(actionOf(modelOf(dimmer()), events('sys', 'scheduled_restart'))).toBeUndefined();
    expect(capabilitiesOf(modelOf(i4())).find((c) => c.property === 'action')?.enum).toContain(
      'double_push_3',
    );
  });

  /** The calls a command makes, through the capability checks. */
  const calls = (status: Record<string, unknown>, request: object) => {
    const model = modelOf(status);
    const capabilities = capabilitiesOf(model);
    const power = model.parts.find((p) => p.kind === 'switch' || p.kind === 'light');
    const { values } = requestedValues(
      capabilities,
      request,
      capabilities.find((c) => c.property === power?.property),
    );
    return [...values].flatMap(([property, value]) =>
      callsFor(model.parts.find((p) => p.property === property) as never, value),
    );
  };

  it.each<[string, Record<string, unknown>, object, unknown[]]>([
    [
      'a switch on',
      plus1pm(),
      { state: { on: true } },
      [{ method: 'Switch.Set', params: { id: 0, on: true } }],
    ],
    [
      'the second switch off',
      pro2pm(),
      { input: { id: 'state_1', value: false } },
      [{ method: 'Switch.Set', params: { id: 1, on: false } }],
    ],
    [
      'a cover opened',
      plus2pmCover(),
      { state: { cover: { command: 'open' } } },
      [{ method: 'Cover.Open', params: { id: 0 } }],
    ],
    [
      'a cover stopped',
      plus2pmCover(),
      { state: { cover: { command: 'stop' } } },
      [{ method: 'Cover.Stop', params: { id: 0 } }],
    ],
    [
      'a cover to 35 %',
      plus2pmCover(),
      { state: { cover: { position: 35 } } },
      [{ method: 'Cover.GoToPosition', params: { id: 0, pos: 35 } }],
    ],
    [
      'slats to 50 %',
      plus2pmCover(),
      { state: { cover: { tilt: 50 } } },
      [{ method: 'Cover.GoToPosition', params: { id: 0, slat_pos: 50 } }],
    ],
    ['a light on', dimmer(), { state: { on: true } }, [{ method: 'Light.Set', params: { id: 0, on: true } }]],
    [
      'a light dimmed over 2 s',
      dimmer(),
      { state: { light: { brightness: 40, transition: 2 } } },
      [{ method: 'Light.Set', params: { id: 0, brightness: 40, transition_duration: 2 } }],
    ],
    [
      'an RGB colour',
      rgbcct(),
      { state: { rgb: { color: '#FF7800' } } },
      [{ method: 'RGB.Set', params: { id: 0, rgb: [255, 120, 0] } }],
    ],
    [
      'a colour temperature',
      rgbcct(),
      { state: { cct: { color_temp: 4000 } } },
      [{ method: 'CCT.Set', params: { id: 0, ct: 4000 } }],
    ],
    [
      'RGBW colour and white',
      rgbw(),
      { state: { rgbw: { color: { hue: 0, saturation: 100 }, white: 128 } } },
      [{ method: 'RGBW.Set', params: { id: 0, rgb: [255, 0, 0], white: 128 } }],
    ],
    [
      "a thermostat's target, and off",
      wallDisplay(),
      { state: { climate: { target_temperature: 21.5 } } },
      [{ method: 'Thermostat.SetConfig', params: { id: 0, config: { target_C: 21.5 } } }],
    ],
    [
      'a thermostat off',
      wallDisplay(),
      { input: { id: 'climate', value: { mode: 'off' } } },
      [{ method: 'Thermostat.SetConfig', params: { id: 0, config: { enable: false } } }],
    ],
  ])('%s', (_case, status, request, expected) => {
    expect(calls(status, request)).toEqual(expected);
  });

  it.each([
    [
      'a position out of range',
      plus2pmCover(),
      { state: { cover: { position: 140 } } },
      'Invalid command payload: cover.position must be between 0 and 100',
    ],
    [
      'a position of a cover that is not calibrated',
      plus2pmCover(false),
      { state: { cover: { position: 40 } } },
      'Invalid command payload: cover.position is not a settable field',
    ],
    [
      'a colour in CIE xy',
      rgbcct(),
      { state: { rgb: { color: { x: 0.3, y: 0.3 } } } },
      'Invalid command payload: rgb.color must be a colour (#RRGGBB)',
    ],
    ['a sensor', humidityTemperature(), { state: { temperature: 20 } }, 'Invalid command payload'],
  ])('refuses %s', (_case, status, request, message) => {
    expect(() => calls(status, request)).toThrow(message);
  });
});

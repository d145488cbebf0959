import type { Capability } from '@hearth/contracts';
import { describe, expect, it } from 'vitest';
import { parseConfig } from './discovery.js';
import { type DiscoveryConfig, discoveryConfig, MAC, relays } from './fixtures/tasmota-discovery.js';
import { capabilitiesOf, modelOf } from './model.js';

const model = (overrides: Partial<DiscoveryConfig> = {}, sensors?: Record<string, unknown>) => {
  const parsed = parseConfig(MAC, Buffer.from(JSON.stringify(discoveryConfig(overrides))));
  if (parsed.kind !== 'config') throw new Error(`config ${parsed.kind}`);
  return modelOf(parsed.config, sensors);
};

/** A capability in short: its property, kind and type, and a composite's features. */
const shape = (c: Capability): unknown =>
  c.kind === 'composite' && c.features
    ? [c.property, c.type, c.features.map((f) => f.property)]
    : [c.property, c.kind, c.type];

const so = (options: Record<string, number>) => ({ so: { ...discoveryConfig().so, ...options } });

describe('Tasmota devices in the hub model', () => {
  it.each<[string, Partial<DiscoveryConfig>, unknown[]]>([
    ['a relay: a writable switch', {}, [['state', 'binary', 'switch']]],
    [
      'two relays: one switch each, named by their friendly names',
      { rl: relays(1, 1), fn: ['Left', 'Right'] },
      [
        ['state_1', 'binary', 'switch'],
        ['state_2', 'binary', 'switch'],
      ],
    ],
    ['a relay with SetOption30: an on/off light', { ...so({ '30': 1 }) }, [['light', 'light', ['state']]]],
    [
      'a dimmer (lt_st 1)',
      { rl: relays(2), lt_st: 1 },
      [['light', 'light', ['state', 'brightness', 'transition']]],
    ],
    [
      'a CT light (lt_st 2)',
      { rl: relays(2), lt_st: 2 },
      [['light', 'light', ['state', 'brightness', 'color_temp', 'transition']]],
    ],
    [
      'an RGB light (lt_st 3)',
      { rl: relays(2), lt_st: 3 },
      [['light', 'light', ['state', 'brightness', 'color', 'effect', 'transition']]],
    ],
    [
      'an RGBW light (lt_st 4)',
      { rl: relays(2), lt_st: 4 },
      [['light', 'light', ['state', 'brightness', 'color', 'effect', 'white', 'transition']]],
    ],
    [
      'an RGBCW light (lt_st 5)',
      { rl: relays(2), lt_st: 5 },
      [['light', 'light', ['state', 'brightness', 'color_temp', 'color', 'effect', 'transition']]],
    ],
    [
      'an RGBCW light with its white unlinked (lk 0): a colour light and a CT light',
      { rl: relays(2, 2), lt_st: 5, lk: 0 },
      [
        ['light_1', 'light', ['state', 'brightness', 'color', 'effect', 'transition']],
        ['light_2', 'light', ['state', 'brightness', 'color_temp', 'transition']],
      ],
    ],
    [
      'a Tuya MCU dimmer: no transition',
      { rl: relays(2), lt_st: 1, ty: 1 },
      [['light', 'light', ['state', 'brightness']]],
    ],
    [
      'a shutter on relays 1 and 2',
      { rl: relays(3, 3) },
      [['cover', 'cover', ['state', 'command', 'position']]],
    ],
    [
      'a shutter with tilt (sht)',
      { rl: relays(3, 3), sht: [[-90, 90, 20]] },
      [['cover', 'cover', ['state', 'command', 'position', 'tilt']]],
    ],
    ['half a shutter pair: nothing', { rl: relays(3, 0) }, []],
    [
      'an iFan: its light an on/off light, and the fan',
      { rl: relays(2), if: 1 },
      [
        ['light', 'light', ['state']],
        ['fan', 'fan', ['state', 'percentage']],
      ],
    ],
    [
      'switches: read-only binaries, named by swn',
      { rl: relays(), swc: [1, 13, -1], swn: ['Door', null] },
      [
        ['switch_1', 'binary', 'binary'],
        ['switch_2', 'binary', 'binary'],
      ],
    ],
  ])('%s', (_case, overrides, expected) => {
    const capabilities = capabilitiesOf(model(overrides)).filter((c) => !c.property.startsWith('wifi_'));
    expect(capabilities.map(shape)).toEqual(expected);
  });

  it('names each relay by its friendly name, else the device name and number', () => {
    const capabilities = capabilitiesOf(model({ rl: relays(1, 1), fn: ['Left', null] }));
    expect(capabilities.slice(0, 2).map((c) => c.name)).toEqual(['Left', 'Hall lamp 2']);
  });

  it.each([
    ['the full range', {}, { min: 153, max: 500, step: 1 }],
    ['SetOption82: 200–380 mired', so({ '82': 1 }), { min: 200, max: 380, step: 1 }],
  ])('gives a CT light %s', (_case, options, range) => {
    const [light] = capabilitiesOf(model({ rl: relays(2), lt_st: 2, ...options }));
    expect(light?.features?.find((f) => f.property === 'color_temp')).toMatchObject({ range, unit: 'mired' });
  });

  it('dims each channel of a multi-channel PWM device (SetOption68) by Channel<n>', () => {
    const parts = model({ rl: relays(2, 2), lt_st: 3, ...so({ '68': 1 }) }).parts;
    expect(
      parts.filter((p) => p.kind === 'light').map((p) => (p.kind === 'light' ? p.dimmerCommand : '')),
    ).toEqual(['Channel1', 'Channel2']);
  });

  it("reports its buttons' and switches' actions under action", () => {
    const capabilities = capabilitiesOf(model({ btn: [1, 0, 0, 0], swc: [0, -1] }));
    const action = capabilities.find((c) => c.property === 'action');
    expect(action?.enum).toEqual(
      expect.arrayContaining(['button_1_single', 'button_1_double', 'button_1_hold', 'switch_1_toggle']),
    );
  });

  it('makes every sensor leaf a capability with its unit: nested objects and lists unfolded', () => {
    const capabilities = capabilitiesOf(
      model(
        {},
        {
          Time: '2025-03-01T08:00:00',
          'DS18B20-1': { Id: '0316A279C4FF', Temperature: 19.8 },
          ENERGY: { TotalStartTime: '2024-11-02T10:00:00', Total: 12.5, TotalTariff: [8.1, 4.4], Power: 41 },
          TX23: { Speed: { Act: 11.2 }, Dir: { Card: 'NW' } },
          BMP280: { Pressure: 1012.4 },
          TempUnit: 'C',
          SpeedUnit: 'km/h',
          PressureUnit: 'hPa',
        },
      ),
    ).filter((c) => c.type === 'numeric' || c.type === 'text');
    expect(capabilities.map((c) => [c.property, c.kind, c.unit ?? null])).toEqual([
      ['ds18b20_1_id', 'text', null],
      ['ds18b20_1_temperature', 'numeric', '°C'],
      ['energy_totalstarttime', 'text', null],
      ['energy_total', 'numeric', 'kWh'],
      ['energy_totaltariff_0', 'numeric', 'kWh'],
      ['energy_totaltariff_1', 'numeric', 'kWh'],
      ['energy_power', 'numeric', 'W'],
      ['tx23_speed_act', 'numeric', 'km/h'],
      ['tx23_dir_card', 'text', null],
      ['bmp280_pressure', 'numeric', 'hPa'],
      ['wifi_rssi', 'numeric', '%'],
      ['wifi_signal', 'numeric', 'dBm'],
    ]);
  });

  it("leaves a shutter's sensor entry to its cover", () => {
    const capabilities = capabilitiesOf(
      model({ rl: relays(3, 3) }, { Shutter1: { Position: 40, Direction: 0 } }),
    );
    expect(capabilities.some((c) => c.property.startsWith('shutter1'))).toBe(false);
  });
});

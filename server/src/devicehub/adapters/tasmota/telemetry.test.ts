import { describe, expect, it } from 'vitest';
import { parseConfig } from './discovery.js';
import { type DiscoveryConfig, discoveryConfig, MAC, relays } from './fixtures/tasmota-discovery.js';
import { modelOf } from './model.js';
import { type Channel, decodeMessage, pollsOf } from './telemetry.js';

const model = (overrides: Partial<DiscoveryConfig> = {}, sensors?: Record<string, unknown>) => {
  const parsed = parseConfig(MAC, Buffer.from(JSON.stringify(discoveryConfig(overrides))));
  if (parsed.kind !== 'config') throw new Error(`config ${parsed.kind}`);
  return modelOf(parsed.config, sensors);
};

const tele = (command: string): Channel => ({ prefix: 'tele', command });
const stat = (command: string): Channel => ({ prefix: 'stat', command });
const json = (value: unknown) => JSON.stringify(value);

const RELAY = {};
const TWO_RELAYS = { rl: relays(1, 1) };
const DIMMER = { rl: relays(2), lt_st: 1 };
const CT = { rl: relays(2), lt_st: 2 };
const RGB = { rl: relays(2), lt_st: 3 };
const RGBW = { rl: relays(2), lt_st: 4 };
const RGBCW = { rl: relays(2), lt_st: 5 };
const SHUTTER = { rl: relays(3, 3) };
const INVERTED = { rl: relays(3, 3), sho: [1] };
const TILTED = { rl: relays(3, 3), sht: [[0, 90, 10]] };
const FAN = { if: 1 };
const SWITCHES = { rl: relays(), swc: [1, 13, 0], swn: [null, 'Bell', null] };
const BUTTON = { btn: [1, 0, 0, 0] };
const SENSORS = {
  AM2301: { Temperature: 21.3, Humidity: 48.2 },
  ENERGY: { Total: 12.5, TotalTariff: [8.1, 4.4], ApparentPower: [3.1, 1.2] },
  TX23: { Speed: { Act: 11.2 }, Dir: { Card: 'NW' } },
  TempUnit: 'C',
};

describe('Tasmota messages decoded into state', () => {
  it.each<
    [string, Partial<DiscoveryConfig>, Channel, string, Record<string, unknown>, Record<string, unknown>]
  >([
    [
      'a relay in tele/STATE',
      RELAY,
      tele('STATE'),
      json({ POWER: 'ON', Wifi: { RSSI: 76, Signal: -62 } }),
      {},
      { state: true, wifi_rssi: 76, wifi_signal: -62 },
    ],
    [
      'a relay in stat/RESULT',
      RELAY,
      stat('RESULT'),
      json({ POWER: 'OFF' }),
      { state: true },
      { state: false },
    ],
    ['a relay in plain stat/POWER', RELAY, stat('POWER'), 'ON', {}, { state: true }],
    ['the second relay in stat/POWER2', TWO_RELAYS, stat('POWER2'), 'ON', {}, { state_2: true }],
    [
      'two relays in tele/STATE',
      TWO_RELAYS,
      tele('STATE'),
      json({ POWER1: 'ON', POWER2: 'OFF' }),
      {},
      { state_1: true, state_2: false },
    ],
    ['nothing new: no report', RELAY, tele('STATE'), json({ POWER: 'ON' }), { state: true }, {}],
    ['a command echo that is not state', RELAY, stat('RESULT'), json({ SetOption19: 'OFF' }), {}, {}],
    [
      'a sensor-only device: STATE without POWER',
      RELAY,
      tele('STATE'),
      json({ Uptime: '1T02:03:04', Wifi: { RSSI: 50 } }),
      {},
      { wifi_rssi: 50 },
    ],
    [
      'a dimmer',
      DIMMER,
      tele('STATE'),
      json({ POWER: 'ON', Dimmer: 40 }),
      {},
      { light: { state: true, brightness: 40, color_mode: 'brightness' } },
    ],
    [
      'a CT light, its Color ignored',
      CT,
      tele('STATE'),
      json({ POWER: 'ON', Dimmer: 60, CT: 327, Color: '153,102' }),
      {},
      { light: { state: true, brightness: 60, color_temp: 327, color_mode: 'color_temp' } },
    ],
    [
      'an RGB light: HSBColor and Scheme',
      RGB,
      stat('RESULT'),
      json({ POWER: 'ON', Dimmer: 80, Color: 'CC3300', HSBColor: '15,100,80', Scheme: 2 }),
      {},
      {
        light: {
          state: true,
          brightness: 80,
          color: { hue: 15, saturation: 100 },
          effect: 'Cycle up',
          color_mode: 'hs',
        },
      },
    ],
    [
      'an RGBW light in white',
      RGBW,
      tele('STATE'),
      json({ POWER: 'ON', Dimmer: 30, HSBColor: '0,0,0', White: 30 }),
      {},
      {
        light: {
          state: true,
          brightness: 30,
          color: { hue: 0, saturation: 0 },
          white: 30,
          color_mode: 'white',
        },
      },
    ],
    [
      'an RGBCW light whose white channels light up: a colour temperature, no colour',
      RGBCW,
      tele('STATE'),
      json({ POWER: 'ON', CT: 250, White: 70 }),
      { light: { state: true, color: { hue: 200, saturation: 90 }, color_mode: 'hs' } },
      { light: { state: true, color: null, color_temp: 250, color_mode: 'color_temp' } },
    ],
    [
      'a light merged into what it was',
      DIMMER,
      stat('RESULT'),
      json({ Dimmer: 55 }),
      { light: { state: true, brightness: 40, color_mode: 'brightness' } },
      { light: { state: true, brightness: 55, color_mode: 'brightness' } },
    ],
    [
      'a fan at speed 1',
      FAN,
      tele('STATE'),
      json({ FanSpeed: 1 }),
      {},
      { fan: { state: true, percentage: 33 } },
    ],
    [
      'a fan off',
      FAN,
      stat('RESULT'),
      json({ FanSpeed: 0 }),
      { fan: { state: true, percentage: 100 } },
      { fan: { state: false, percentage: 0 } },
    ],
    [
      'a shutter closing',
      SHUTTER,
      tele('SENSOR'),
      json({ Shutter1: { Position: 54, Direction: -1 } }),
      {},
      { cover: { state: 'closing', position: 54 } },
    ],
    [
      'a shutter stopped part open',
      SHUTTER,
      stat('RESULT'),
      json({ Shutter1: { Position: 1, Direction: 0 } }),
      {},
      { cover: { state: 'open', position: 1 } },
    ],
    [
      'a shutter closed',
      SHUTTER,
      tele('SENSOR'),
      json({ Shutter1: { Position: 0, Direction: 0 } }),
      {},
      { cover: { state: 'closed', position: 0 } },
    ],
    [
      'a shutter in STATUS 10',
      SHUTTER,
      stat('STATUS10'),
      json({ StatusSNS: { Shutter1: { Position: 70, Direction: 1 } } }),
      {},
      { cover: { state: 'opening', position: 70 } },
    ],
    [
      'an inverted shutter',
      INVERTED,
      tele('SENSOR'),
      json({ Shutter1: { Position: 54, Direction: -1 } }),
      {},
      { cover: { state: 'opening', position: 46 } },
    ],
    [
      'a shutter with tilt',
      TILTED,
      tele('SENSOR'),
      json({ Shutter1: { Position: 0, Direction: 0, Tilt: 45 } }),
      {},
      { cover: { state: 'closed', position: 0, tilt: 50 } },
    ],
    [
      'a switch in tele/SENSOR',
      SWITCHES,
      tele('SENSOR'),
      json({ Switch1: 'ON', Bell: 'ON', Switch3: 'OFF' }),
      {},
      { switch_1: true, switch_3: false },
    ],
    [
      'a switch in STATUS 10',
      SWITCHES,
      stat('STATUS10'),
      json({ StatusSNS: { Switch1: 'OFF' } }),
      {},
      { switch_1: false },
    ],
    [
      'a switch named by swn, by its Action',
      SWITCHES,
      stat('RESULT'),
      json({ Bell: { Action: 'ON' } }),
      {},
      { switch_2: true },
    ],
    [
      'a toggle switch: an action',
      SWITCHES,
      stat('RESULT'),
      json({ Switch3: { Action: 'TOGGLE' } }),
      {},
      { action: 'switch_3_toggle' },
    ],
    [
      'a button press',
      BUTTON,
      stat('RESULT'),
      json({ Button1: { Action: 'DOUBLE' } }),
      {},
      { action: 'button_1_double' },
    ],
    [
      'sensors: nested, listed and numbers as text',
      RELAY,
      tele('SENSOR'),
      json({
        Time: '2025-03-01T08:01:00',
        AM2301: { Temperature: 21.5, Humidity: 47 },
        ENERGY: { TotalTariff: [8.2, 4.4] },
        TX23: { Speed: { Act: '12.3' }, Dir: { Card: 'W' } },
      }),
      {},
      {
        am2301_temperature: 21.5,
        am2301_humidity: 47,
        energy_totaltariff_0: 8.2,
        energy_totaltariff_1: 4.4,
        tx23_speed_act: 12.3,
        tx23_dir_card: 'W',
      },
    ],
    [
      'sensors in STATUS 10',
      RELAY,
      stat('STATUS10'),
      json({ StatusSNS: { AM2301: { Temperature: 20 } } }),
      {},
      { am2301_temperature: 20 },
    ],
    [
      'a list announced, one value sent: item 0',
      RELAY,
      tele('SENSOR'),
      json({ ENERGY: { ApparentPower: 5.5 } }),
      {},
      { energy_apparentpower_0: 5.5 },
    ],
    [
      'a value where a list was announced: left',
      RELAY,
      tele('SENSOR'),
      json({ ENERGY: { TotalTariff: { Phase1: 1 } } }),
      {},
      {},
    ],
  ])('%s', (_case, config, channel, payload, before, expected) => {
    const decoded = decodeMessage(model(config, SENSORS), channel, payload, before);
    expect(decoded.state).toEqual(expected);
  });

  it.each([
    ['Online', true],
    ['Offline', false],
    ['Rebooting', undefined],
  ])('reads tele/LWT %s as availability', (payload, online) => {
    expect(decodeMessage(model(), tele('LWT'), payload, {}).online).toBe(online);
  });

  it('says which push-on switches turned on (they turn off again), and ignores their SENSOR state', () => {
    const device = model(SWITCHES);
    expect(decodeMessage(device, stat('RESULT'), json({ Bell: { Action: 'ON' } }), {}).pushed).toEqual([
      'switch_2',
    ]);
    expect(decodeMessage(device, tele('SENSOR'), json({ Bell: 'OFF' }), { switch_2: true }).state).toEqual(
      {},
    );
  });

  it('tells malformed JSON from a topic it does not read', () => {
    expect(decodeMessage(model(), tele('STATE'), '{"POWER": "ON"', {})).toEqual({
      state: {},
      malformed: true,
    });
    expect(decodeMessage(model(), tele('INFO1'), '{"Info1": {}}', {})).toEqual({ state: {} });
  });

  it('asks a device that comes online for its state (STATE) and its sensors (STATUS 10)', () => {
    expect(pollsOf('cmnd/hall_lamp/')).toEqual([
      { topic: 'cmnd/hall_lamp/STATE', payload: '' },
      { topic: 'cmnd/hall_lamp/STATUS', payload: '10' },
    ]);
  });
});

import { describe, expect, it } from 'vitest';
import { commandFor } from './commands.js';
import { parseConfig } from './discovery.js';
import { type DiscoveryConfig, discoveryConfig, MAC, relays } from './fixtures/tasmota-discovery.js';
import { capabilitiesOf, modelOf } from './model.js';
import { requestedValues } from './request.js';

const model = (overrides: Partial<DiscoveryConfig> = {}) => {
  const parsed = parseConfig(MAC, Buffer.from(JSON.stringify(discoveryConfig(overrides))));
  if (parsed.kind !== 'config') throw new Error(`config ${parsed.kind}`);
  return modelOf(parsed.config);
};

const so = (options: Record<string, number>) => ({ so: { ...discoveryConfig().so, ...options } });
const CMND = 'cmnd/hall_lamp/';

/** What a command request publishes, through the capability checks, as Tasmota takes it. */
function published(config: Partial<DiscoveryConfig>, request: object, current: Record<string, unknown> = {}) {
  const device = model(config);
  const capabilities = capabilitiesOf(device);
  const power = device.parts.find((p) => p.kind === 'relay' || p.kind === 'light' || p.kind === 'fan');
  const { values } = requestedValues(
    capabilities,
    request,
    capabilities.find((c) => c.property === power?.property),
  );
  return [...values].flatMap(([property, value]) =>
    commandFor(
      device,
      device.parts.find((p) => p.property === property) as never,
      value,
      current[property],
      CMND,
    ).map((p) => `${p.topic} ${p.payload}`),
  );
}

describe('Tasmota commands', () => {
  it.each<[string, Partial<DiscoveryConfig>, object, string[]]>([
    ['a relay on', {}, { state: { on: true } }, ['cmnd/hall_lamp/Power1 ON']],
    ['a relay off by its input', {}, { input: { id: 'state', value: false } }, ['cmnd/hall_lamp/Power1 OFF']],
    ['the second relay', { rl: relays(1, 1) }, { state: { state_2: 'ON' } }, ['cmnd/hall_lamp/Power2 ON']],
    [
      'a relay shown as a light (SetOption30)',
      so({ '30': 1 }),
      { state: { on: true } },
      ['cmnd/hall_lamp/Power1 ON'],
    ],
    [
      'a light on',
      { rl: relays(2), lt_st: 1 },
      { state: { on: true } },
      ['cmnd/hall_lamp/Backlog NoDelay;Power1 ON'],
    ],
    [
      'a light off',
      { rl: relays(2), lt_st: 1 },
      { state: { on: false } },
      ['cmnd/hall_lamp/Backlog NoDelay;Power1 OFF'],
    ],
    [
      'a dimmer at 75 %',
      { rl: relays(2), lt_st: 1 },
      { state: { light: { brightness: 75 } } },
      ['cmnd/hall_lamp/Backlog NoDelay;Dimmer 75'],
    ],
    [
      'a dimmer that dimming does not switch on (SetOption20)',
      { rl: relays(2), lt_st: 1, ...so({ '20': 1 }) },
      { state: { light: { brightness: 75 } } },
      ['cmnd/hall_lamp/Backlog NoDelay;Dimmer 75;NoDelay;Power1 ON'],
    ],
    [
      'a Tuya MCU dimmer: Dimmer3',
      { rl: relays(2), lt_st: 1, ty: 1 },
      { state: { light: { brightness: 30 } } },
      ['cmnd/hall_lamp/Backlog NoDelay;Dimmer3 30'],
    ],
    [
      'a colour temperature',
      { rl: relays(2), lt_st: 2 },
      { input: { id: 'light', value: { color_temp: 200 } } },
      ['cmnd/hall_lamp/Backlog NoDelay;Power1 ON;NoDelay;CT 200'],
    ],
    [
      'a colour as hue and saturation (HsbColor1, HsbColor2)',
      { rl: relays(2), lt_st: 3 },
      { state: { light: { color: '#00FFFF' } } },
      ['cmnd/hall_lamp/Backlog NoDelay;Power1 ON;NoDelay;HsbColor1 180;NoDelay;HsbColor2 100'],
    ],
    [
      'an effect (Scheme)',
      { rl: relays(2), lt_st: 3 },
      { state: { light: { effect: 'Random' } } },
      ['cmnd/hall_lamp/Backlog NoDelay;Power1 ON;NoDelay;Scheme 4'],
    ],
    [
      'white on an RGBW light',
      { rl: relays(2), lt_st: 4 },
      { state: { light: { white: 50 } } },
      ['cmnd/hall_lamp/Backlog NoDelay;Power1 ON;NoDelay;White 50'],
    ],
    [
      'several at once in one Backlog',
      { rl: relays(2), lt_st: 5 },
      { state: { light: { brightness: 40, color_temp: 300 }, on: true } },
      ['cmnd/hall_lamp/Backlog NoDelay;Dimmer 40;NoDelay;CT 300'],
    ],
    [
      'a transition: fade on, its speed for the change',
      { rl: relays(2), lt_st: 1 },
      { state: { light: { brightness: 100, transition: 4 } } },
      ['cmnd/hall_lamp/Backlog NoDelay;Fade2 1;NoDelay;Speed2 8;NoDelay;Dimmer 100'],
    ],
    [
      'off without a transition: fade off',
      { rl: relays(2), lt_st: 1 },
      { state: { light: { state: false, transition: 0 } } },
      ['cmnd/hall_lamp/Backlog NoDelay;Fade2 0;NoDelay;Power1 OFF'],
    ],
    [
      'a shutter opened',
      { rl: relays(3, 3) },
      { state: { cover: { command: 'open' } } },
      ['cmnd/hall_lamp/ShutterOpen1 '],
    ],
    [
      'a shutter stopped',
      { rl: relays(3, 3) },
      { state: { cover: { command: 'stop' } } },
      ['cmnd/hall_lamp/ShutterStop1 '],
    ],
    [
      'a shutter to 40 %',
      { rl: relays(3, 3) },
      { state: { cover: { position: 40 } } },
      ['cmnd/hall_lamp/ShutterPosition1 40'],
    ],
    [
      'an inverted shutter to 40 %',
      { rl: relays(3, 3), sho: [1] },
      { state: { cover: { position: 40 } } },
      ['cmnd/hall_lamp/ShutterPosition1 60'],
    ],
    [
      'a tilt',
      { rl: relays(3, 3), sht: [[-90, 90, 12]] },
      { state: { cover: { tilt: 75 } } },
      ['cmnd/hall_lamp/ShutterTilt1 45'],
    ],
    ['a fan on: medium', { if: 1 }, { state: { fan: { state: true } } }, ['cmnd/hall_lamp/FanSpeed 2']],
    [
      'a fan at 15 %: speed 1',
      { if: 1 },
      { state: { fan: { percentage: 15 } } },
      ['cmnd/hall_lamp/FanSpeed 1'],
    ],
    [
      'a fan at 90 %: speed 3',
      { if: 1 },
      { state: { fan: { percentage: 90 } } },
      ['cmnd/hall_lamp/FanSpeed 3'],
    ],
    ['a fan off', { if: 1 }, { state: { fan: { state: false } } }, ['cmnd/hall_lamp/FanSpeed 0']],
  ])('%s', (_case, config, request, expected) => {
    expect(published(config, request)).toEqual(expected);
  });

  it("works out a fade's speed from the light's brightness now", () => {
    const dimmer = { rl: relays(2), lt_st: 1 };
    const request = { state: { light: { brightness: 100, transition: 4 } } };
    expect(published(dimmer, request, { light: { state: true, brightness: 50 } })).toEqual([
      'cmnd/hall_lamp/Backlog NoDelay;Fade2 1;NoDelay;Speed2 16;NoDelay;Dimmer 100',
    ]);
  });

  it.each([
    [
      'a brightness out of range',
      { state: { light: { brightness: 120 } } },
      'Invalid command payload: light.brightness must be between 0 and 100',
    ],
    [
      'an effect it does not have',
      { state: { light: { effect: 'Disco' } } },
      'Invalid command payload: light.effect must be one of Solid, Wake up, Cycle up, Cycle down, Random',
    ],
    ['a read-only value only', { state: { wifi_signal: -40 } }, 'Invalid command payload'],
  ])('refuses %s, sending nothing', (_case, request, message) => {
    expect(() => published({ rl: relays(2), lt_st: 3 }, request)).toThrow(message);
  });
});

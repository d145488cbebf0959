import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseBridgeDevices } from './bridge-devices.js';
import { buildSetPayload } from './commands.js';
import { mapExposes } from './exposes.js';

const fixture = JSON.parse(
  fs.readFileSync(new URL('./fixtures/bridge-devices.json', import.meta.url), 'utf8'),
);
const { devices } = parseBridgeDevices(fixture);
const capabilitiesOf = (name: string) => devices.find((d) => d.friendly_name === name)!.capabilities;
const lamp = capabilitiesOf('Living room/Lamp');
const stairs = capabilitiesOf('Stairs switch');
const door = capabilitiesOf('Front door');
const fan = mapExposes([
  {
    type: 'fan',
    features: [
      {
        type: 'binary',
        name: 'fan_state',
        property: 'fan_state',
        access: 7,
        value_on: 'ON',
        value_off: 'OFF',
      },
      { type: 'enum', name: 'fan_mode', property: 'fan_mode', access: 7, values: ['off', 'auto'] },
    ],
  },
]).capabilities;

describe('commands become the /set payload Zigbee2MQTT expects', () => {
  it.each([
    [
      'brightness slider',
      lamp,
      { input: { id: 'brightness', value: 128 }, state: { on: true } },
      { brightness: 128, state: 'ON' },
    ],
    [
      'brightness 0 turns off',
      lamp,
      { input: { id: 'brightness', value: 0 }, state: { on: false } },
      { brightness: 0, state: 'OFF' },
    ],
    [
      'colour',
      lamp,
      { input: { id: 'color', value: '#FF8800' }, state: { on: true } },
      { color: { hex: '#FF8800' }, state: 'ON' },
    ],
    [
      'colour without #, lower case',
      lamp,
      { input: { id: 'color', value: 'ff8800' } },
      { color: { hex: '#FF8800' } },
    ],
    [
      'colour as r,g,b (clamped)',
      lamp,
      { input: { id: 'color', value: { r: 300, g: 136, b: -4 } } },
      { color: { hex: '#FF8800' } },
    ],
    ['toggle true', lamp, { input: { id: 'state', value: true } }, { state: 'ON' }],
    ['toggle "off"', lamp, { input: { id: 'state', value: 'off' } }, { state: 'OFF' }],
    ['toggle with the device value', lamp, { input: { id: 'state', value: 'TOGGLE' } }, { state: 'TOGGLE' }],
    ['power toggle alone', lamp, { state: { on: false } }, { state: 'OFF' }],
    [
      'effect select',
      lamp,
      { input: { id: 'effect', value: 'breathe' }, state: { effect: 'breathe', on: true } },
      { effect: 'breathe', state: 'ON' },
    ],
    ['numeric string', lamp, { input: { id: 'color_temp', value: '300' } }, { color_temp: 300 }],
    ['number clamped to range', lamp, { input: { id: 'brightness', value: 999 } }, { brightness: 254 }],
    ['power toggle of a fan', fan, { state: { on: true } }, { fan_state: 'ON' }],
    ['endpoint toggle', stairs, { input: { id: 'state_left', value: true } }, { state_left: 'ON' }],
    [
      'stream state with several properties',
      lamp,
      { state: { state: 'ON', brightness: 10, color: '#00ff00' } },
      { state: 'ON', brightness: 10, color: { hex: '#00FF00' } },
    ],
    ['read-only keys in state are left out', lamp, { state: { on: true, linkquality: 3 } }, { state: 'ON' }],
  ])('%s', (_label, capabilities, request, payload) => {
    expect(buildSetPayload(capabilities, request)).toEqual(payload);
  });

  it.each([
    ['no body', lamp, undefined, 'Missing command payload'],
    ['null', lamp, null, 'Missing command payload'],
    ['an empty object', lamp, {}, 'Missing command payload'],
    ['a string', lamp, 'ON', 'Invalid command payload'],
    ['an array', lamp, [1], 'Invalid command payload'],
    ['input not an object', lamp, { input: 'brightness' }, 'Invalid command payload'],
    ['unknown input', lamp, { input: { id: 'warp', value: 1 } }, 'Invalid command payload'],
    ['read-only input', lamp, { input: { id: 'linkquality', value: 1 } }, 'Invalid command payload'],
    [
      'slider value not a number',
      lamp,
      { input: { id: 'brightness', value: 'bright' } },
      'Invalid command payload',
    ],
    ['colour that is no colour', lamp, { input: { id: 'color', value: '#12' } }, 'Invalid command payload'],
    [
      'select value not offered',
      lamp,
      { input: { id: 'effect', value: 'disco' } },
      'Invalid command payload',
    ],
    ['toggle value unreadable', lamp, { input: { id: 'state', value: 'maybe' } }, 'Invalid command payload'],
    ['a sensor has nothing to set', door, { state: { on: true } }, 'Invalid command payload'],
  ])('refuses %s', (_label, capabilities, request, message) => {
    expect(() => buildSetPayload(capabilities, request)).toThrow(message);
  });
});

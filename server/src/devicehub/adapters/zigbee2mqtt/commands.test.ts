import fs from 'node:fs';
import { MAX_TEXT_LENGTH } from '@hearth/contracts';
import { describe, expect, it } from 'vitest';
import { parseBridgeDevices } from './bridge-devices.js';
import { buildSetPayload } from './commands.js';
import { mapExposes } from './exposes.js';
import { compositeDevicesFixture } from './fixtures/scripted-zigbee2mqtt.js';

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
    [
      'a number outside the range',
      lamp,
      { input: { id: 'brightness', value: 999 } },
      'Invalid command payload: brightness must be between 0 and 254',
    ],
  ])('refuses %s', (_label, capabilities, request, message) => {
    expect(() => buildSetPayload(capabilities, request)).toThrow(message);
  });
});

describe('composites, lists and text are sent whole, as Zigbee2MQTT takes them', () => {
  const real = parseBridgeDevices(compositeDevicesFixture()).devices;
  const of = (name: string) => real.find((d) => d.friendly_name === name)!.capabilities;
  const siren = of('Hall siren');
  const lock = of('Front door lock');
  const dimmer = of('Stairs dimmer');
  const relay = of('Garden relay');
  const thermostat = of('Bedroom thermostat');
  const gradient = of('Living room gradient');
  const warning = { mode: 'burglar', level: 'high', strobe: true, duration: 10 };

  it.each([
    ['a siren warning (REST)', siren, { input: { id: 'warning', value: warning } }, { warning }],
    ['a siren warning (stream state)', siren, { state: { warning } }, { warning }],
    [
      "binary fields in the device's own values",
      siren,
      { input: { id: 'squawk', value: { state: 'system_is_armed', strobe: 'on' } } },
      { squawk: { state: 'system_is_armed', strobe: true } },
    ],
    [
      'a pin code',
      lock,
      {
        input: {
          id: 'pin_code',
          value: { user: 3, user_type: 'unrestricted', user_enabled: true, pin_code: 1234 },
        },
      },
      { pin_code: { user: 3, user_type: 'unrestricted', user_enabled: true, pin_code: 1234 } },
    ],
    [
      'a composite on an endpoint, with a preset',
      dimmer,
      { input: { id: 'level_config_l1', value: { on_level_l1: 'previous', current_level_startup_l1: 30 } } },
      { level_config_l1: { on_level_l1: 'previous', current_level_startup_l1: 30 } },
    ],
    [
      'a nested composite',
      relay,
      {
        input: {
          id: 'programmable_stepper_seq1',
          value: { enable_stepper: true, step_1: { enable_step: true } },
        },
      },
      { programmable_stepper_seq1: { enable_stepper: true, step_1: { enable_step: true } } },
    ],
    [
      'lists of composites inside a composite',
      thermostat,
      {
        state: {
          weekly_schedule: {
            dayofweek: [{ day: 'monday' }, { day: 'friday' }],
            transitions: [{ transition_time: { hour: 6, minute: 30 }, heat_setpoint: 21 }],
          },
        },
      },
      {
        weekly_schedule: {
          dayofweek: [{ day: 'monday' }, { day: 'friday' }],
          transitions: [{ transition_time: { hour: 6, minute: 30 }, heat_setpoint: 21 }],
        },
      },
    ],
    [
      'a list of text items',
      gradient,
      { input: { id: 'gradient', value: ['#FF0000', '#0000FF'] } },
      { gradient: ['#FF0000', '#0000FF'] },
    ],
    ['text', gradient, { input: { id: 'effect_color', value: '#00FF00' } }, { effect_color: '#00FF00' }],
  ])('%s', (_label, capabilities, request, payload) => {
    expect(buildSetPayload(capabilities, request)).toEqual(payload);
  });

  it.each([
    [
      'a value not offered',
      siren,
      { warning: { ...warning, level: 'deafening' } },
      'Invalid command payload: warning.level must be one of low, medium, high, very_high',
    ],
    [
      'a number outside the range',
      siren,
      { warning: { strobe_duty_cycle: 11 } },
      'Invalid command payload: warning.strobe_duty_cycle must be between 0 and 10',
    ],
    [
      'a number that is text',
      lock,
      { pin_code: { user: 'one' } },
      'Invalid command payload: pin_code.user must be a number',
    ],
    [
      'an unknown field',
      siren,
      { warning: { volume: 3 } },
      'Invalid command payload: warning.volume is not a settable field',
    ],
    [
      'not an object',
      siren,
      { warning: 'burglar' },
      'Invalid command payload: warning must be an object of its fields',
    ],
    ['an empty object', siren, { warning: {} }, 'Invalid command payload: warning has no fields'],
    [
      'a wrong value deep inside',
      thermostat,
      { weekly_schedule: { transitions: [{ transition_time: { hour: 'six' } }] } },
      'Invalid command payload: weekly_schedule.transitions[0].transition_time.hour must be a number',
    ],
    [
      'too many items',
      gradient,
      { gradient: Array.from({ length: 10 }, () => '#FFFFFF') },
      'Invalid command payload: gradient must have at most 9 items',
    ],
    [
      'too few items',
      gradient,
      { gradient: [] },
      'Invalid command payload: gradient must have at least 1 items',
    ],
    [
      'a list that is not one',
      gradient,
      { gradient: '#FFFFFF' },
      'Invalid command payload: gradient must be a list',
    ],
    [
      'an item of the wrong type',
      gradient,
      { gradient: [3] },
      'Invalid command payload: gradient[0] must be text',
    ],
    [
      'text that is too long',
      gradient,
      { effect_color: 'x'.repeat(MAX_TEXT_LENGTH + 1) },
      `Invalid command payload: effect_color must be at most ${MAX_TEXT_LENGTH} characters`,
    ],
  ])('refuses %s, naming the value', (_label, capabilities, state, message) => {
    expect(() => buildSetPayload(capabilities, { state })).toThrow(
      expect.objectContaining({ statusCode: 400, message }),
    );
  });
});

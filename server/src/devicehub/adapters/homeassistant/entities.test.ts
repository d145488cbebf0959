import { describe, expect, it } from 'vitest';
import type { JsonObject } from '../../../shared/json.js';
import { availabilityMessage, availabilityOf, combined } from './availability.js';
import { type Component, type EntityConfig, parseConfig } from './discovery.js';
import { buildCommand, capabilityOf, decode, stateTopics } from './entities.js';
import { Payload } from './payload.js';
import { TemplateEngine } from './templates.js';

// Each component as Home Assistant reads and drives it, on fixtures written in its discovery format.

const templates = new TemplateEngine();

function entity(component: Component, config: JsonObject): EntityConfig {
  const parsed = parseConfig(
    'homeassistant',
    `homeassistant/${component}/thing/config`,
    Buffer.from(JSON.stringify(config)),
  );
  if (parsed.kind !== 'entities' || !parsed.entities[0])
    throw new Error(`fixture refused: ${JSON.stringify(parsed)}`);
  return parsed.entities[0];
}

/** The entity's value after these messages ([topic, payload] pairs, in order). */
function after(e: EntityConfig, messages: [string, string][]): unknown {
  let value: unknown;
  for (const [topic, payload] of messages) {
    for (const [key, configured] of stateTopics(e)) {
      if (configured !== topic) continue;
      value = decode(e, key, new Payload(Buffer.from(payload)), value, templates).value;
    }
  }
  return value;
}

const published = (e: EntityConfig, value: unknown, current?: unknown) =>
  buildCommand(e, capabilityOf(e, 'Thing'), value, current, templates).publications.map(
    (p) => `${p.topic} ${p.payload}`,
  );

const switchConfig = {
  command_topic: 'plug/set',
  state_topic: 'plug/state',
  payload_on: 'on',
  payload_off: 'off',
};
const lightConfig = {
  command_topic: 'lamp/set',
  state_topic: 'lamp/state',
  brightness_command_topic: 'lamp/brightness/set',
  brightness_state_topic: 'lamp/brightness',
  brightness_scale: 100,
  rgb_command_topic: 'lamp/rgb/set',
  rgb_state_topic: 'lamp/rgb',
  effect_command_topic: 'lamp/effect/set',
  effect_list: ['rainbow', 'candle'],
};
const jsonLight = {
  schema: 'json',
  command_topic: 'strip/set',
  state_topic: 'strip',
  supported_color_modes: ['hs', 'color_temp'],
  brightness: true,
};
const coverConfig = {
  command_topic: 'blind/set',
  state_topic: 'blind/state',
  position_topic: 'blind/position',
  set_position_topic: 'blind/position/set',
  position_open: 255,
  position_closed: 0,
  set_position_template: '{"pos": {{ position }}}',
};
const climateConfig = {
  mode_command_topic: 'hvac/mode/set',
  mode_state_topic: 'hvac/state',
  mode_state_template: '{{ value_json.mode }}',
  modes: ['off', 'heat', 'cool'],
  temperature_command_topic: 'hvac/target/set',
  temperature_state_topic: 'hvac/state',
  temperature_state_template: '{{ value_json.target }}',
  current_temperature_topic: 'hvac/state',
  current_temperature_template: '{{ value_json.current }}',
  preset_modes: ['eco', 'boost'],
  preset_mode_command_topic: 'hvac/preset/set',
  temperature_unit: 'C',
};
const fanConfig = {
  command_topic: 'fan/set',
  state_topic: 'fan/state',
  percentage_command_topic: 'fan/speed/set',
  percentage_state_topic: 'fan/speed',
  speed_range_min: 1,
  speed_range_max: 4,
  oscillation_command_topic: 'fan/osc/set',
};

describe('Home Assistant components: capabilities', () => {
  it.each([
    // [component, config, what the capability is]
    [
      'sensor',
      { state_topic: 't', unit_of_measurement: '°C' },
      { kind: 'numeric', unit: '°C', access: { readOnly: true } },
    ],
    ['sensor', { state_topic: 't' }, { kind: 'text' }],
    ['binary_sensor', { state_topic: 't' }, { kind: 'binary', access: { readOnly: true } }],
    ['switch', switchConfig, { kind: 'binary', type: 'switch', access: { readOnly: false, toggle: true } }],
    [
      'number',
      { command_topic: 'n', min: 0, max: 10, step: 0.5 },
      { kind: 'numeric', range: { min: 0, max: 10, step: 0.5 } },
    ],
    ['select', { command_topic: 's', options: ['a', 'b'] }, { kind: 'enum', enum: ['a', 'b'] }],
    ['text', { command_topic: 't' }, { kind: 'text', access: { readOnly: false } }],
    [
      'button',
      { command_topic: 'b' },
      { kind: 'enum', enum: ['press'], access: { readOnly: false, published: false } },
    ],
    [
      'event',
      { state_topic: 'e', event_types: ['press', 'hold'] },
      { kind: 'enum', enum: ['press', 'hold'] },
    ],
  ] as [Component, JsonObject, object][])('%s %j', (component, config, expected) => {
    expect(capabilityOf(entity(component, config), 'Thing')).toMatchObject(expected);
  });

  it.each([
    // [component, config, its parts: property kind readable writable]
    [
      'light',
      lightConfig,
      ['state binary r w', 'brightness numeric r w', 'color composite r w', 'effect enum - w'],
    ],
    [
      'light',
      jsonLight,
      ['state binary r w', 'brightness numeric r w', 'color_temp numeric r w', 'color composite r w'],
    ],
    ['cover', coverConfig, ['state enum r -', 'command enum - w', 'position numeric r w']],
    [
      'valve',
      { command_topic: 'v', state_topic: 'v/s', reports_position: true },
      ['state enum r -', 'command enum - w', 'position numeric r w'],
    ],
    [
      'climate',
      climateConfig,
      [
        'mode enum r w',
        'target_temperature numeric r w',
        'current_temperature numeric r -',
        'preset_mode enum - w',
      ],
    ],
    ['fan', fanConfig, ['state binary r w', 'percentage numeric r w', 'oscillating binary - w']],
    [
      'lock',
      { command_topic: 'l', state_topic: 'l/s', payload_open: 'OPEN' },
      ['state enum r -', 'command enum - w'],
    ],
    [
      'alarm_control_panel',
      { command_topic: 'a', state_topic: 'a/s', code: 'REMOTE_CODE' },
      ['state enum r -', 'command enum - w', 'code text - w'],
    ],
    [
      'humidifier',
      { command_topic: 'h', target_humidity_command_topic: 'h/t', modes: ['eco'], mode_command_topic: 'h/m' },
      ['state binary - w', 'target_humidity numeric - w', 'mode enum - w'],
    ],
    [
      'water_heater',
      { mode_command_topic: 'w/m', temperature_command_topic: 'w/t', current_temperature_topic: 'w/c' },
      ['mode enum - w', 'target_temperature numeric - w', 'current_temperature numeric r -'],
    ],
    [
      'vacuum',
      { command_topic: 'v', state_topic: 'v/s', set_fan_speed_topic: 'v/f', fan_speed_list: ['min', 'max'] },
      ['state enum r -', 'battery_level numeric r -', 'command enum - w', 'fan_speed enum r w'],
    ],
    [
      'siren',
      { command_topic: 's', available_tones: ['fire'], support_volume_set: true },
      ['state binary - w', 'tone enum - w', 'volume_level numeric - w'],
    ],
    [
      'update',
      { state_topic: 'u', command_topic: 'u/i', payload_install: 'go' },
      [
        'installed_version text r -',
        'latest_version text r -',
        'in_progress binary r -',
        'update_percentage numeric r -',
        'command enum - w',
      ],
    ],
  ] as [Component, JsonObject, string[]][])('%s has its parts', (component, config, parts) => {
    const capability = capabilityOf(entity(component, config), 'Thing');
    expect(capability.kind).toBe('composite');
    expect(
      (capability.features ?? []).map(
        (f) => `${f.property} ${f.kind} ${f.access.published ? 'r' : '-'} ${f.access.readOnly ? '-' : 'w'}`,
      ),
    ).toEqual(parts);
  });
});

describe('Home Assistant components: state', () => {
  it.each([
    // [component, config, messages, value]
    [
      'sensor',
      { state_topic: 't', unit_of_measurement: 'W', value_template: '{{ value_json.power }}' },
      [['t', '{"power": 12.5}']],
      12.5,
    ],
    [
      'sensor',
      { state_topic: 't', unit_of_measurement: 'W' },
      [
        ['t', '12'],
        ['t', 'garbage'],
      ],
      12,
    ],
    ['sensor', { state_topic: 't' }, [['t', 'None']], null],
    ['binary_sensor', { state_topic: 't', payload_on: '1', payload_off: '0' }, [['t', '1']], true],
    [
      'binary_sensor',
      { state_topic: 't', payload_on: true, value_template: '{{ value_json.on }}' },
      [['t', '{"on": true}']],
      true,
    ],
    [
      'switch',
      switchConfig,
      [
        ['plug/state', 'on'],
        ['plug/state', 'off'],
      ],
      false,
    ],
    [
      'select',
      { command_topic: 's', state_topic: 's/s', options: ['a', 'b'] },
      [
        ['s/s', 'a'],
        ['s/s', 'z'],
      ],
      'a',
    ],
    [
      'number',
      { command_topic: 'n', state_topic: 'n/s', min: 0, max: 10 },
      [
        ['n/s', '4'],
        ['n/s', '40'],
      ],
      4,
    ],
    ['event', { state_topic: 'e', event_types: ['press'] }, [['e', '{"event_type": "press"}']], 'press'],
    [
      'light',
      lightConfig,
      [
        ['lamp/state', 'ON'],
        ['lamp/brightness', '40'],
        ['lamp/rgb', '255,0,10'],
      ],
      { state: true, brightness: 40, color: { r: 255, g: 0, b: 10 } },
    ],
    [
      'light',
      jsonLight,
      [['strip', '{"state":"ON","brightness":10,"color_mode":"hs","color":{"h":120,"s":50}}']],
      { state: true, brightness: 10, color_mode: 'hs', color: { hue: 120, saturation: 50 } },
    ],
    [
      'cover',
      coverConfig,
      [
        ['blind/state', 'opening'],
        ['blind/position', '128'],
      ],
      { state: 'opening', position: 50 },
    ],
    [
      'valve',
      { command_topic: 'v', state_topic: 'v/s', reports_position: true },
      [['v/s', '30']],
      { position: 30, state: 'open' },
    ],
    [
      'climate',
      climateConfig,
      [['hvac/state', '{"mode":"heat","target":21.5,"current":19.2}']],
      { mode: 'heat', target_temperature: 21.5, current_temperature: 19.2 },
    ],
    [
      'climate',
      climateConfig,
      [
        ['hvac/state', '{"mode":"heat"}'],
        ['hvac/state', '{"mode":"turbo"}'],
      ],
      { mode: 'heat' },
    ],
    [
      'fan',
      fanConfig,
      [
        ['fan/state', 'ON'],
        ['fan/speed', '2'],
      ],
      { state: true, percentage: 50 },
    ],
    [
      'lock',
      { command_topic: 'l', state_topic: 'l/s' },
      [
        ['l/s', 'LOCKED'],
        ['l/s', 'GARBAGE'],
      ],
      { state: 'locked' },
    ],
    [
      'vacuum',
      { state_topic: 'v/s' },
      [['v/s', '{"state":"docked","battery_level":90}']],
      { state: 'docked', battery_level: 90 },
    ],
    [
      'update',
      { state_topic: 'u' },
      [['u', '{"installed_version":"1.0","latest_version":"1.1"}']],
      { installed_version: '1.0', latest_version: '1.1' },
    ],
  ] as [Component, JsonObject, [string, string][], unknown][])(
    '%s %j',
    (component, config, messages, value) => {
      expect(after(entity(component, config), messages)).toEqual(value);
    },
  );

  it('marks a template that fails with its error and leaves the value', () => {
    const e = entity('sensor', {
      state_topic: 't',
      unit_of_measurement: 'W',
      value_template: '{{ value | float }}',
    });
    const decoded = decode(e, 'state_topic', new Payload(Buffer.from('abc')), 5, templates);
    expect(decoded).toEqual({
      value: 5,
      changed: false,
      error: expect.stringContaining('value_template: float got invalid input'),
    });
  });
});

describe('Home Assistant components: commands', () => {
  it.each([
    // [component, config, value, publications]
    ['switch', switchConfig, true, ['plug/set on']],
    [
      'switch',
      { ...switchConfig, command_template: '{"relay": "{{ value }}"}' },
      false,
      ['plug/set {"relay": "off"}'],
    ],
    [
      'number',
      { command_topic: 'n', min: 0, max: 10, command_template: '{{ value | round(0) }}' },
      4.4,
      ['n 4'],
    ],
    ['select', { command_topic: 's', options: ['a', 'b'] }, 'b', ['s b']],
    ['button', { command_topic: 'b' }, 'press', ['b PRESS']],
    ['scene', { command_topic: 'sc', payload_on: 'go' }, 'activate', ['sc go']],
    ['light', lightConfig, { brightness: 50 }, ['lamp/brightness/set 50', 'lamp/set ON']],
    [
      'light',
      { ...lightConfig, on_command_type: 'first' },
      { state: true, color: '#00FF00' },
      ['lamp/set ON', 'lamp/rgb/set 0,255,0'],
    ],
    ['light', lightConfig, { state: false, brightness: 5 }, ['lamp/set OFF']],
    [
      'light',
      jsonLight,
      { state: true, brightness: 10, color: { hue: 120, saturation: 50 } },
      ['strip/set {"state":"ON","color":{"h":120,"s":50},"brightness":10}'],
    ],
    [
      'light',
      {
        schema: 'template',
        command_topic: 'tl',
        command_on_template: 'on,{{ brightness | default("") }}',
        command_off_template: 'off',
        brightness_template: '{{ value }}',
      },
      { brightness: 30 },
      ['tl on,30'],
    ],
    ['cover', coverConfig, { command: 'close' }, ['blind/set CLOSE']],
    ['cover', coverConfig, { position: 50 }, ['blind/position/set {"pos": 128}']],
    ['valve', { command_topic: 'v', reports_position: true }, { command: 'open' }, ['v 100']],
    [
      'climate',
      climateConfig,
      { mode: 'cool', target_temperature: 22.5 },
      ['hvac/mode/set cool', 'hvac/target/set 22.5'],
    ],
    ['climate', climateConfig, { preset_mode: 'eco' }, ['hvac/preset/set eco']],
    ['fan', fanConfig, { state: true, percentage: 60 }, ['fan/set ON', 'fan/speed/set 3']],
    ['fan', fanConfig, { oscillating: true }, ['fan/osc/set oscillate_on']],
    ['lock', { command_topic: 'l', payload_unlock: 'U' }, { command: 'unlock' }, ['l U']],
    [
      'alarm_control_panel',
      {
        command_topic: 'a',
        state_topic: 'a/s',
        code: '1234',
        command_template: '{"action":"{{ action }}","code":"{{ code }}"}',
      },
      { command: 'disarm', code: '1234' },
      ['a {"action":"DISARM","code":"1234"}'],
    ],
    [
      'humidifier',
      { command_topic: 'h', target_humidity_command_topic: 'h/t' },
      { target_humidity: 45 },
      ['h/t 45'],
    ],
    [
      'vacuum',
      { command_topic: 'v', set_fan_speed_topic: 'v/f', fan_speed_list: ['min', 'max'] },
      { command: 'return_to_base', fan_speed: 'max' },
      ['v/f max', 'v return_to_base'],
    ],
    [
      'siren',
      {
        command_topic: 's',
        command_template: '{{ value }} {{ tone | default("x") }}',
        available_tones: ['fire'],
      },
      { state: true, tone: 'fire' },
      ['s ON fire'],
    ],
    [
      'update',
      { state_topic: 'u', command_topic: 'u/i', payload_install: 'go' },
      { command: 'install' },
      ['u/i go'],
    ],
  ] as [Component, JsonObject, unknown, string[]][])('%s %j', (component, config, value, publications) => {
    expect(published(entity(component, config), value)).toEqual(publications);
  });

  it.each([
    // [component, config, value, refusal]
    ['select', { command_topic: 's', options: ['a', 'b'] }, 'z', 'must be one of a, b'],
    ['number', { command_topic: 'n', min: 0, max: 10 }, 11, 'must be between 0 and 10'],
    [
      'alarm_control_panel',
      { command_topic: 'a', state_topic: 'a/s', code: '1234' },
      { command: 'disarm', code: '0000' },
      'is not the code',
    ],
    ['climate', climateConfig, { mode: 'turbo' }, 'must be one of off, heat, cool'],
  ] as [Component, JsonObject, unknown, string][])(
    'refuses %s %j, sending nothing',
    (component, config, value, refusal) => {
      expect(() => published(entity(component, config), value)).toThrow(refusal);
    },
  );

  it('publishes with the config retain and qos', () => {
    const e = entity('switch', { ...switchConfig, retain: true, qos: 2 });
    expect(buildCommand(e, capabilityOf(e, 'x'), true, undefined, templates).publications).toEqual([
      { topic: 'plug/set', payload: 'on', qos: 2, retain: true },
    ]);
  });

  it('answers an entity without a state topic with the value it assumes (optimistic)', () => {
    const e = entity('switch', { command_topic: 'p' });
    expect(buildCommand(e, capabilityOf(e, 'x'), true, undefined, templates).optimistic).toBe(true);
  });
});

describe('Home Assistant availability', () => {
  const check = (config: JsonObject, messages: [string, string][]) => {
    const availability = availabilityOf(config);
    if (!availability) return 'always';
    const heard = new Map<string, boolean>();
    let latest: boolean | undefined;
    for (const [topic, payload] of messages)
      for (const entry of availability.entries.filter((e) => e.topic === topic)) {
        const said = availabilityMessage(entry, new Payload(Buffer.from(payload)), undefined, templates);
        if (said.available !== undefined) {
          heard.set(topic, said.available);
          latest = said.available;
        }
      }
    return combined(availability, heard, latest);
  };
  const two = (mode: string) => ({
    availability_mode: mode,
    availability: [{ topic: 'a' }, { topic: 'b', payload_available: 'ready' }],
  });

  it.each([
    ['no availability', {}, [], 'always'],
    ['availability: []', { availability: [] }, [], 'always'],
    ['nothing heard yet', { availability_topic: 'a' }, [], false],
    ['the default payloads', { availability_topic: 'a' }, [['a', 'online']], true],
    ['own payloads', { availability_topic: 'a', payload_available: 'Online' }, [['a', 'Online']], true],
    [
      'a template',
      { availability_topic: 'a', availability_template: '{{ value_json.state }}' },
      [['a', '{"state":"offline"}']],
      false,
    ],
    [
      'latest: the last word counts',
      two('latest'),
      [
        ['a', 'online'],
        ['b', 'offline'],
      ],
      false,
    ],
    [
      'all: every topic available',
      two('all'),
      [
        ['a', 'online'],
        ['b', 'ready'],
      ],
      true,
    ],
    ['all: one missing', two('all'), [['a', 'online']], false],
    [
      'any: one is enough',
      two('any'),
      [
        ['a', 'offline'],
        ['b', 'ready'],
      ],
      true,
    ],
  ] as [string, JsonObject, [string, string][], unknown][])('%s', (_what, config, messages, expected) => {
    expect(check(config, messages)).toBe(expected);
  });
});

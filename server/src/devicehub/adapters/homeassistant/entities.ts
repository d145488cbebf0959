import type { Capability, CapabilityAccess, NumericRange } from '@hearth/contracts';
import { HttpError } from '../../../http/errors.js';
import { isObject, type JsonObject } from '../../../shared/json.js';
import { DevicehubMessages } from '../../devicehub.errors.js';
import { convert } from '../zigbee2mqtt/commands.js';
import { humanize } from '../zigbee2mqtt/exposes.js';
import { hexToRgb, hsToRgb, type Rgb, rgbToHs, rgbToXy } from './colours.js';
import type { Component, EntityConfig } from './discovery.js';
import type { Payload } from './payload.js';
import { pyStr, type TemplateEngine, toRuntime } from './templates.js';

/**
 * Each Home Assistant component in the hub's model (docs/devicehub.md#home-assistant-discovery-mapping):
 * the capability an entity becomes, the topics it listens on, how a message there changes its
 * value, and what a command publishes, exactly as Home Assistant would. Pure: the adapter keeps
 * each entity's value and passes it in.
 */

/** A message Hearth publishes for a command. */
export interface Publication {
  topic: string;
  payload: string;
  qos: 0 | 1 | 2;
  retain: boolean;
}

/** What a message did to an entity: its new value, and the template error it ran into, if any. */
export interface Decoded {
  value: unknown;
  changed: boolean;
  error?: string;
  /** From json_attributes_topic: for the capability's metadata. */
  attributes?: JsonObject;
}

/** Home Assistant prints a config value this way before comparing or publishing it (`true` → `True`). */
export const str = (value: unknown): string =>
  value === undefined ? '' : typeof value === 'string' ? value : pyStr(toRuntime(value));

const num = (value: unknown, fallback: number): number =>
  typeof value === 'number' && Number.isFinite(value) ? value : fallback;

/** Python's float() of a rendered value; undefined when it is not a number. */
function parseNumber(text: string): number | undefined {
  const trimmed = text.trim();
  if (!/^[+-]?(\d+(\.\d*)?|\.\d+)(e[+-]?\d+)?$/i.test(trimmed)) return undefined;
  return Number(trimmed);
}

/** A number as Home Assistant publishes it: `25`, `21.5`. */
const formatNumber = (value: number) =>
  String(Number.isInteger(value) ? value : Math.round(value * 1e6) / 1e6);

// ── capabilities ───────────────────────────────────────────────────────────────────────────────

export function accessOf(read: boolean, write: boolean, binary = false): CapabilityAccess {
  const access: CapabilityAccess = { readOnly: !write, write, set: write, published: read };
  if (write && binary) access.toggle = true;
  return access;
}

export interface Leaf {
  property: string;
  name: string;
  type: string;
  read: boolean;
  write: boolean;
}

export const binary = (leaf: Leaf): Capability => ({
  id: leaf.property,
  property: leaf.property,
  name: leaf.name,
  kind: 'binary',
  type: leaf.type,
  value_type: 'boolean',
  access: accessOf(leaf.read, leaf.write, true),
  metadata: { value_on: true, value_off: false },
});

export function numeric(leaf: Leaf, range: NumericRange, unit?: string): Capability {
  const clean = Object.fromEntries(Object.entries(range).filter(([, v]) => v !== undefined)) as NumericRange;
  return {
    id: leaf.property,
    property: leaf.property,
    name: leaf.name,
    kind: 'numeric',
    type: leaf.type,
    value_type: 'number',
    ...(unit ? { unit } : {}),
    ...(Object.keys(clean).length > 0 ? { range: clean } : {}),
    ...(clean.step !== undefined ? { step: clean.step } : {}),
    access: accessOf(leaf.read, leaf.write),
    metadata: {},
  };
}

export const enumeration = (leaf: Leaf, values: string[]): Capability => ({
  id: leaf.property,
  property: leaf.property,
  name: leaf.name,
  kind: 'enum',
  type: leaf.type,
  value_type: 'enum',
  enum: values,
  access: accessOf(leaf.read, leaf.write),
  metadata: { values },
});

export const textual = (leaf: Leaf, length?: { min?: number; max?: number }): Capability => ({
  id: leaf.property,
  property: leaf.property,
  name: leaf.name,
  kind: 'text',
  type: leaf.type,
  value_type: 'string',
  access: accessOf(leaf.read, leaf.write),
  metadata: length ? { min_length: length.min, max_length: length.max } : {},
});

/** An entity of several parts: one capability whose value is an object of them. */
export function composite(id: string, name: string, type: string, features: Capability[]): Capability {
  const read = features.some((f) => f.access.published);
  const write = features.some((f) => !f.access.readOnly);
  return {
    id,
    property: id,
    name,
    kind: 'composite',
    type,
    value_type: 'object',
    access: accessOf(read, write),
    features,
    metadata: {},
  };
}

const has = (c: JsonObject, key: string) => typeof c[key] === 'string' && c[key] !== '';
const strings = (value: unknown): string[] | undefined =>
  Array.isArray(value) ? value.map((v) => str(v)) : undefined;

// ── parts: the declarative pieces of climate, water heaters, humidifiers, fans, … ─────────────

interface Part {
  feature: string;
  kind: 'enum' | 'number' | 'binary' | 'text';
  /** [state topic key, value template key] */
  state?: [string, string];
  /** [command topic key, command template key] */
  command?: [string, string | undefined];
  values?: (c: JsonObject) => string[] | undefined;
  range?: (c: JsonObject) => NumericRange;
  unit?: (c: JsonObject) => string | undefined;
  /** binary: payload keys and defaults. */
  on?: [string, string];
  off?: [string, string];
  /** A rendered `None` (or this key's payload) resets the part to null. */
  reset?: string;
  /** Values outside these are ignored (read-only enums with a fixed vocabulary). */
  fixed?: string[];
}

const tempUnit = (c: JsonObject) =>
  c.temperature_unit === 'F' ? '°F' : c.temperature_unit === 'K' ? 'K' : '°C';
const tempRange = (c: JsonObject, min: number, max: number): NumericRange => {
  const fahrenheit = c.temperature_unit === 'F';
  return {
    min: num(c.min_temp, fahrenheit ? Math.round(min * 1.8 + 32) : min),
    max: num(c.max_temp, fahrenheit ? Math.round(max * 1.8 + 32) : max),
    step: num(c.temp_step ?? c.target_temp_step, c.precision !== undefined ? num(c.precision, 1) : 1),
  };
};
const withNone = (values: string[] | undefined) =>
  values && !values.includes('none') ? [...values, 'none'] : values;

const CLIMATE_ACTIONS = ['off', 'preheating', 'defrosting', 'heating', 'cooling', 'drying', 'idle', 'fan'];

const PARTS: Partial<Record<Component, (c: JsonObject) => Part[]>> = {
  climate: (c) => {
    const legacyHold =
      c.preset_modes === undefined &&
      (c.hold_command_topic !== undefined || c.hold_state_topic !== undefined);
    return [
      {
        feature: 'mode',
        kind: 'enum',
        state: ['mode_state_topic', 'mode_state_template'],
        command: ['mode_command_topic', 'mode_command_template'],
        values: (x) => strings(x.modes) ?? ['auto', 'off', 'cool', 'heat', 'dry', 'fan_only'],
      },
      {
        feature: 'target_temperature',
        kind: 'number',
        state: ['temperature_state_topic', 'temperature_state_template'],
        command: ['temperature_command_topic', 'temperature_command_template'],
        range: (x) => tempRange(x, 7, 35),
        unit: tempUnit,
      },
      {
        feature: 'target_temp_low',
        kind: 'number',
        state: ['temperature_low_state_topic', 'temperature_low_state_template'],
        command: ['temperature_low_command_topic', 'temperature_low_command_template'],
        range: (x) => tempRange(x, 7, 35),
        unit: tempUnit,
      },
      {
        feature: 'target_temp_high',
        kind: 'number',
        state: ['temperature_high_state_topic', 'temperature_high_state_template'],
        command: ['temperature_high_command_topic', 'temperature_high_command_template'],
        range: (x) => tempRange(x, 7, 35),
        unit: tempUnit,
      },
      {
        feature: 'current_temperature',
        kind: 'number',
        state: ['current_temperature_topic', 'current_temperature_template'],
        unit: tempUnit,
      },
      {
        feature: 'current_humidity',
        kind: 'number',
        state: ['current_humidity_topic', 'current_humidity_template'],
        unit: () => '%',
      },
      {
        feature: 'target_humidity',
        kind: 'number',
        state: ['target_humidity_state_topic', 'target_humidity_state_template'],
        command: ['target_humidity_command_topic', 'target_humidity_command_template'],
        range: (x) => ({ min: num(x.min_humidity, 30), max: num(x.max_humidity, 99), step: 1 }),
        unit: () => '%',
      },
      {
        feature: 'action',
        kind: 'enum',
        state: ['action_topic', 'action_template'],
        fixed: CLIMATE_ACTIONS,
        values: () => CLIMATE_ACTIONS,
        reset: 'None',
      },
      legacyHold
        ? {
            feature: 'preset_mode',
            kind: 'enum',
            state: ['hold_state_topic', 'hold_state_template'],
            command: ['hold_command_topic', 'hold_command_template'],
            values: (x) => withNone(strings(x.hold_modes)),
          }
        : {
            feature: 'preset_mode',
            kind: 'enum',
            state: ['preset_mode_state_topic', 'preset_mode_value_template'],
            command: ['preset_mode_command_topic', 'preset_mode_command_template'],
            values: (x) => withNone(strings(x.preset_modes)),
          },
      {
        feature: 'fan_mode',
        kind: 'enum',
        state: ['fan_mode_state_topic', 'fan_mode_state_template'],
        command: ['fan_mode_command_topic', 'fan_mode_command_template'],
        values: (x) => strings(x.fan_modes) ?? ['auto', 'low', 'medium', 'high'],
      },
      {
        feature: 'swing_mode',
        kind: 'enum',
        state: ['swing_mode_state_topic', 'swing_mode_state_template'],
        command: ['swing_mode_command_topic', 'swing_mode_command_template'],
        values: (x) => strings(x.swing_modes) ?? ['on', 'off'],
      },
      {
        feature: 'swing_horizontal_mode',
        kind: 'enum',
        state: ['swing_horizontal_mode_state_topic', 'swing_horizontal_mode_state_template'],
        command: ['swing_horizontal_mode_command_topic', 'swing_horizontal_mode_command_template'],
        values: (x) => strings(x.swing_horizontal_modes) ?? ['on', 'off'],
      },
      {
        feature: 'power',
        kind: 'binary',
        command: ['power_command_topic', 'power_command_template'],
        on: ['payload_on', 'ON'],
        off: ['payload_off', 'OFF'],
      },
      // Keys Home Assistant has removed that older producers still send.
      {
        feature: 'away_mode',
        kind: 'binary',
        state: ['away_mode_state_topic', 'away_mode_state_template'],
        command: ['away_mode_command_topic', undefined],
        on: ['payload_on', 'ON'],
        off: ['payload_off', 'OFF'],
      },
      {
        feature: 'aux',
        kind: 'binary',
        state: ['aux_state_topic', 'aux_state_template'],
        command: ['aux_command_topic', undefined],
        on: ['payload_on', 'ON'],
        off: ['payload_off', 'OFF'],
      },
    ];
  },
  water_heater: () => [
    {
      feature: 'mode',
      kind: 'enum',
      state: ['mode_state_topic', 'mode_state_template'],
      command: ['mode_command_topic', 'mode_command_template'],
      values: (x) =>
        strings(x.modes) ?? ['off', 'eco', 'electric', 'gas', 'heat_pump', 'high_demand', 'performance'],
    },
    {
      feature: 'target_temperature',
      kind: 'number',
      state: ['temperature_state_topic', 'temperature_state_template'],
      command: ['temperature_command_topic', 'temperature_command_template'],
      range: (x) => ({
        min: typeof x.min_temp === 'number' ? x.min_temp : undefined,
        max: typeof x.max_temp === 'number' ? x.max_temp : undefined,
        step: num(x.precision, 1),
      }),
      unit: tempUnit,
    },
    {
      feature: 'current_temperature',
      kind: 'number',
      state: ['current_temperature_topic', 'current_temperature_template'],
      unit: tempUnit,
    },
    {
      feature: 'power',
      kind: 'binary',
      command: ['power_command_topic', 'power_command_template'],
      on: ['payload_on', 'ON'],
      off: ['payload_off', 'OFF'],
    },
  ],
  humidifier: () => [
    {
      feature: 'state',
      kind: 'binary',
      state: ['state_topic', 'state_value_template'],
      command: ['command_topic', 'command_template'],
      on: ['payload_on', 'ON'],
      off: ['payload_off', 'OFF'],
    },
    {
      feature: 'target_humidity',
      kind: 'number',
      state: ['target_humidity_state_topic', 'target_humidity_state_template'],
      command: ['target_humidity_command_topic', 'target_humidity_command_template'],
      range: (x) => ({ min: num(x.min_humidity, 0), max: num(x.max_humidity, 100), step: 1 }),
      unit: () => '%',
      reset: 'payload_reset_humidity',
    },
    {
      feature: 'mode',
      kind: 'enum',
      state: ['mode_state_topic', 'mode_state_template'],
      command: ['mode_command_topic', 'mode_command_template'],
      values: (x) => strings(x.modes),
      reset: 'payload_reset_mode',
    },
    {
      feature: 'current_humidity',
      kind: 'number',
      state: ['current_humidity_topic', 'current_humidity_template'],
      unit: () => '%',
    },
    {
      feature: 'action',
      kind: 'enum',
      state: ['action_topic', 'action_template'],
      fixed: ['off', 'humidifying', 'drying', 'idle'],
      values: () => ['off', 'humidifying', 'drying', 'idle'],
    },
  ],
  fan: () => [
    {
      feature: 'state',
      kind: 'binary',
      state: ['state_topic', 'state_value_template'],
      command: ['command_topic', 'command_template'],
      on: ['payload_on', 'ON'],
      off: ['payload_off', 'OFF'],
    },
    {
      feature: 'preset_mode',
      kind: 'enum',
      state: ['preset_mode_state_topic', 'preset_mode_value_template'],
      command: ['preset_mode_command_topic', 'preset_mode_command_template'],
      values: (x) => strings(x.preset_modes),
      reset: 'payload_reset_preset_mode',
    },
    {
      feature: 'oscillating',
      kind: 'binary',
      state: ['oscillation_state_topic', 'oscillation_value_template'],
      command: ['oscillation_command_topic', 'oscillation_command_template'],
      on: ['payload_oscillation_on', 'oscillate_on'],
      off: ['payload_oscillation_off', 'oscillate_off'],
    },
    {
      feature: 'direction',
      kind: 'enum',
      state: ['direction_state_topic', 'direction_value_template'],
      command: ['direction_command_topic', 'direction_command_template'],
      values: () => ['forward', 'reverse'],
    },
  ],
};

/** The parts of each config, found once (each message on its topics asks again). */
const partsByConfig = new WeakMap<EntityConfig, Part[]>();

/** A part is there when the config has one of its topics. */
function partsOf(e: EntityConfig): Part[] {
  let parts = partsByConfig.get(e);
  if (!parts) {
    parts = (PARTS[e.component]?.(e.config) ?? []).filter(
      (p) => (p.state && has(e.config, p.state[0])) || (p.command && has(e.config, p.command[0])),
    );
    partsByConfig.set(e, parts);
  }
  return parts;
}

function partCapability(e: EntityConfig, part: Part): Capability {
  const c = e.config;
  const leaf: Leaf = {
    property: part.feature,
    name: humanize(part.feature),
    type: e.component,
    read: part.state !== undefined && has(c, part.state[0]),
    write: part.command !== undefined && has(c, part.command[0]),
  };
  switch (part.kind) {
    case 'binary':
      return binary(leaf);
    case 'number':
      return numeric(leaf, part.range?.(c) ?? {}, part.unit?.(c));
    case 'enum': {
      const values = part.values?.(c);
      return values ? enumeration(leaf, values) : textual(leaf);
    }
    default:
      return textual(leaf);
  }
}

// ── the capability of each component ────────────────────────────────────────────────────────

const NUMERIC_DEVICE_CLASSES = new Set([
  'apparent_power',
  'aqi',
  'atmospheric_pressure',
  'battery',
  'carbon_dioxide',
  'carbon_monoxide',
  'current',
  'data_rate',
  'data_size',
  'distance',
  'duration',
  'energy',
  'energy_storage',
  'frequency',
  'gas',
  'humidity',
  'illuminance',
  'irradiance',
  'moisture',
  'monetary',
  'nitrogen_dioxide',
  'nitrogen_monoxide',
  'nitrous_oxide',
  'ozone',
  'ph',
  'pm1',
  'pm10',
  'pm25',
  'power',
  'power_factor',
  'precipitation',
  'precipitation_intensity',
  'pressure',
  'reactive_power',
  'signal_strength',
  'sound_pressure',
  'speed',
  'sulphur_dioxide',
  'temperature',
  'volatile_organic_compounds',
  'volatile_organic_compounds_parts',
  'voltage',
  'volume',
  'volume_flow_rate',
  'volume_storage',
  'water',
  'weight',
  'wind_speed',
  'wind_direction',
]);

/** A sensor is numeric when it has a unit, a state class or a numeric device class. */
export const numericSensor = (c: JsonObject) =>
  c.unit_of_measurement !== undefined ||
  c.state_class !== undefined ||
  NUMERIC_DEVICE_CLASSES.has(String(c.device_class));

type LightSchema = 'default' | 'json' | 'template';
const lightSchema = (c: JsonObject): LightSchema =>
  c.schema === 'json' ? 'json' : c.schema === 'template' ? 'template' : 'default';

/** The colour modes a light takes (its `color` part), in Home Assistant's names. */
function colourModes(c: JsonObject): string[] {
  const schema = lightSchema(c);
  if (schema === 'template') return has(c, 'red_template') ? ['rgb'] : [];
  if (schema === 'json') {
    const supported = strings(c.supported_color_modes);
    const modes = new Set<string>();
    for (const mode of supported ?? [])
      if (['hs', 'xy', 'rgb', 'rgbw', 'rgbww'].includes(mode)) modes.add(mode);
    if (c.rgb === true) modes.add('rgb');
    if (c.hs === true) modes.add('hs');
    if (c.xy === true) modes.add('xy');
    return [...modes];
  }
  return ['rgb', 'rgbw', 'rgbww', 'hs', 'xy'].filter(
    (mode) => has(c, `${mode}_command_topic`) || has(c, `${mode}_state_topic`),
  );
}

const colourTemperatureRange = (c: JsonObject): { range: NumericRange; unit: string } =>
  c.color_temp_kelvin === true
    ? { range: { min: num(c.min_kelvin, 2000), max: num(c.max_kelvin, 6535), step: 1 }, unit: 'K' }
    : { range: { min: num(c.min_mireds, 153), max: num(c.max_mireds, 500), step: 1 }, unit: 'mired' };

function lightFeatures(e: EntityConfig): Capability[] {
  const c = e.config;
  const schema = lightSchema(c);
  const type = 'light';
  const read = has(c, 'state_topic');
  const leaf = (property: string, write: boolean, own?: string): Leaf => ({
    property,
    name: humanize(property),
    type,
    read: schema === 'default' ? (own ? has(c, own) : read) : read,
    write,
  });
  const supported = strings(c.supported_color_modes) ?? [];
  const features: Capability[] = [
    binary({ ...leaf('state', true), read: read || schema !== 'default' ? read : false }),
  ];
  const brightness =
    schema === 'default'
      ? has(c, 'brightness_command_topic') || has(c, 'brightness_state_topic')
      : schema === 'json'
        ? c.brightness === true || supported.some((mode) => mode !== 'onoff')
        : has(c, 'brightness_template');
  if (brightness)
    features.push(
      numeric(
        leaf(
          'brightness',
          schema !== 'default' || has(c, 'brightness_command_topic'),
          'brightness_state_topic',
        ),
        {
          min: 0,
          max: num(c.brightness_scale, 255),
          step: 1,
        },
      ),
    );
  const colourTemperature =
    schema === 'default'
      ? has(c, 'color_temp_command_topic') || has(c, 'color_temp_state_topic')
      : schema === 'json'
        ? c.color_temp === true || supported.includes('color_temp')
        : has(c, 'color_temp_template');
  if (colourTemperature) {
    const { range, unit } = colourTemperatureRange(c);
    features.push(
      numeric(
        leaf(
          'color_temp',
          schema !== 'default' || has(c, 'color_temp_command_topic'),
          'color_temp_state_topic',
        ),
        range,
        unit,
      ),
    );
  }
  const modes = colourModes(c);
  if (modes.length > 0) {
    const write = schema !== 'default' || modes.some((mode) => has(c, `${mode}_command_topic`));
    const own = schema === 'default' ? modes.some((mode) => has(c, `${mode}_state_topic`)) : read;
    features.push({
      id: 'color',
      property: 'color',
      name: 'Color',
      kind: 'composite',
      type,
      value_type: 'object',
      access: accessOf(own, write),
      metadata: {
        color_modes: modes,
        features: modes.includes('hs')
          ? ['hue', 'saturation']
          : modes.includes('xy')
            ? ['x', 'y']
            : ['r', 'g', 'b'],
      },
    });
  }
  const effects = strings(c.effect_list);
  const effect =
    schema === 'default'
      ? has(c, 'effect_command_topic') || has(c, 'effect_state_topic')
      : effects !== undefined && (schema !== 'json' || c.effect !== false);
  if (effect && effects)
    features.push(
      enumeration(
        leaf('effect', schema !== 'default' || has(c, 'effect_command_topic'), 'effect_state_topic'),
        effects,
      ),
    );
  if (schema === 'default' && (has(c, 'white_command_topic') || has(c, 'white_scale')))
    features.push(
      numeric(leaf('white', has(c, 'white_command_topic')), {
        min: 0,
        max: num(c.white_scale, 255),
        step: 1,
      }),
    );
  return features;
}

const COVER_STATES = ['open', 'opening', 'closed', 'closing', 'stopped'];

function coverFeatures(e: EntityConfig): Capability[] {
  const c = e.config;
  const type = e.component;
  const features: Capability[] = [];
  const positionRead = has(c, 'position_topic');
  const stateRead = has(c, 'state_topic') || positionRead;
  if (stateRead)
    features.push(
      enumeration(
        { property: 'state', name: 'State', type, read: true, write: false },
        COVER_STATES.filter((s) => type === 'cover' || s !== 'stopped'),
      ),
    );
  if (has(c, 'command_topic')) {
    const commands = [
      ['open', 'payload_open', 'OPEN'],
      ['close', 'payload_close', 'CLOSE'],
      ['stop', 'payload_stop', 'STOP'],
    ]
      .filter(([, key]) => c[key as string] !== null)
      .map(([name]) => name as string);
    if (commands.length > 0)
      features.push(
        enumeration({ property: 'command', name: 'Command', type, read: false, write: true }, commands),
      );
  }
  if (type === 'cover') {
    if (positionRead || has(c, 'set_position_topic'))
      features.push(
        numeric(
          {
            property: 'position',
            name: 'Position',
            type,
            read: positionRead,
            write: has(c, 'set_position_topic'),
          },
          { min: 0, max: 100, step: 1 },
          '%',
        ),
      );
    if (has(c, 'tilt_status_topic') || has(c, 'tilt_command_topic'))
      features.push(
        numeric(
          {
            property: 'tilt',
            name: 'Tilt',
            type,
            read: has(c, 'tilt_status_topic'),
            write: has(c, 'tilt_command_topic'),
          },
          { min: 0, max: 100, step: 1 },
          '%',
        ),
      );
  } else if (c.reports_position === true) {
    features.push(
      numeric(
        {
          property: 'position',
          name: 'Position',
          type,
          read: has(c, 'state_topic'),
          write: has(c, 'command_topic'),
        },
        { min: 0, max: 100, step: 1 },
        '%',
      ),
    );
  }
  return features;
}

const LOCK_STATES = ['locked', 'unlocked', 'jammed', 'locking', 'unlocking', 'open', 'opening'];
const ALARM_STATES = [
  'disarmed',
  'armed_home',
  'armed_away',
  'armed_night',
  'armed_vacation',
  'armed_custom_bypass',
  'pending',
  'triggered',
  'arming',
  'disarming',
];
const ALARM_ACTIONS: [string, string, string][] = [
  ['arm_home', 'payload_arm_home', 'ARM_HOME'],
  ['arm_away', 'payload_arm_away', 'ARM_AWAY'],
  ['arm_night', 'payload_arm_night', 'ARM_NIGHT'],
  ['arm_vacation', 'payload_arm_vacation', 'ARM_VACATION'],
  ['arm_custom_bypass', 'payload_arm_custom_bypass', 'ARM_CUSTOM_BYPASS'],
  ['trigger', 'payload_trigger', 'TRIGGER'],
  ['disarm', 'payload_disarm', 'DISARM'],
];
const ALARM_FEATURES: Record<string, string> = {
  arm_home: 'arm_home',
  arm_away: 'arm_away',
  arm_night: 'arm_night',
  arm_vacation: 'arm_vacation',
  arm_custom_bypass: 'arm_custom_bypass',
  trigger: 'trigger',
};
const VACUUM_STATES = ['cleaning', 'docked', 'paused', 'idle', 'returning', 'error'];
const VACUUM_COMMANDS: [string, string, string, string][] = [
  ['start', 'payload_start', 'start', 'start'],
  ['pause', 'payload_pause', 'pause', 'pause'],
  ['stop', 'payload_stop', 'stop', 'stop'],
  ['return_to_base', 'payload_return_to_base', 'return_to_base', 'return_home'],
  ['clean_spot', 'payload_clean_spot', 'clean_spot', 'clean_spot'],
  ['locate', 'payload_locate', 'locate', 'locate'],
];

/** The capability an entity becomes; `name` is its label (the device's name when it has none). */
export function capabilityOf(e: EntityConfig, name: string): Capability {
  const c = e.config;
  const id = e.objectId;
  const type = e.component;
  const leaf = (read: boolean, write: boolean, kindType: string = type): Leaf => ({
    property: id,
    name,
    type: kindType,
    read,
    write,
  });
  switch (e.component) {
    case 'sensor':
      return numericSensor(c)
        ? numeric(
            leaf(true, false, 'numeric'),
            {},
            typeof c.unit_of_measurement === 'string' ? c.unit_of_measurement : undefined,
          )
        : textual(leaf(true, false, 'text'));
    case 'binary_sensor':
      return binary(leaf(true, false, 'binary'));
    case 'switch':
      return binary(leaf(has(c, 'state_topic'), true));
    case 'number':
      return numeric(
        leaf(has(c, 'state_topic'), true),
        { min: num(c.min, 1), max: num(c.max, 100), step: num(c.step, 1) },
        typeof c.unit_of_measurement === 'string' ? c.unit_of_measurement : undefined,
      );
    case 'select':
      return enumeration(leaf(has(c, 'state_topic'), true), strings(c.options) ?? []);
    case 'text':
      return textual(leaf(has(c, 'state_topic'), true), { min: num(c.min, 0), max: num(c.max, 255) });
    case 'button':
      return enumeration(leaf(false, true), ['press']);
    case 'scene':
      return enumeration(leaf(false, true), ['activate']);
    case 'event':
      return enumeration(leaf(true, false), strings(c.event_types) ?? []);
    case 'device_tracker':
      return textual(leaf(has(c, 'state_topic'), false));
    case 'device_automation':
      return enumeration(leaf(true, false), [triggerName(c)]);
    case 'light':
      return composite(id, name, type, lightFeatures(e));
    case 'cover':
    case 'valve':
      return composite(id, name, type, coverFeatures(e));
    case 'lock': {
      const features = [];
      if (has(c, 'state_topic'))
        features.push(
          enumeration({ property: 'state', name: 'State', type, read: true, write: false }, LOCK_STATES),
        );
      features.push(
        enumeration(
          { property: 'command', name: 'Command', type, read: false, write: true },
          c.payload_open !== undefined && c.payload_open !== null
            ? ['lock', 'unlock', 'open']
            : ['lock', 'unlock'],
        ),
      );
      return composite(id, name, type, features);
    }
    case 'alarm_control_panel': {
      const supported = strings(c.supported_features);
      const actions = ALARM_ACTIONS.filter(
        ([action]) =>
          action === 'disarm' || !supported || supported.includes(ALARM_FEATURES[action] as string),
      ).map(([action]) => action);
      const features = [
        enumeration({ property: 'state', name: 'State', type, read: true, write: false }, ALARM_STATES),
        enumeration({ property: 'command', name: 'Command', type, read: false, write: true }, actions),
      ];
      if (c.code !== undefined && c.code !== null)
        features.push(textual({ property: 'code', name: 'Code', type, read: false, write: true }));
      return composite(id, name, type, features);
    }
    case 'vacuum': {
      const supported = strings(c.supported_features);
      const features = [];
      if (has(c, 'state_topic')) {
        features.push(
          enumeration({ property: 'state', name: 'State', type, read: true, write: false }, VACUUM_STATES),
        );
        if (!supported || supported.includes('battery'))
          features.push(
            numeric(
              { property: 'battery_level', name: 'Battery', type, read: true, write: false },
              { min: 0, max: 100 },
              '%',
            ),
          );
      }
      if (has(c, 'command_topic')) {
        const commands = VACUUM_COMMANDS.filter(
          ([, , , feature]) => !supported || supported.includes(feature),
        ).map(([command]) => command);
        if (commands.length > 0)
          features.push(
            enumeration({ property: 'command', name: 'Command', type, read: false, write: true }, commands),
          );
      }
      const speeds = strings(c.fan_speed_list);
      if (speeds && (has(c, 'set_fan_speed_topic') || has(c, 'state_topic')))
        features.push(
          enumeration(
            {
              property: 'fan_speed',
              name: 'Fan speed',
              type,
              read: has(c, 'state_topic'),
              write: has(c, 'set_fan_speed_topic'),
            },
            speeds,
          ),
        );
      return composite(id, name, type, features);
    }
    case 'siren': {
      const features = [
        binary({ property: 'state', name: 'State', type, read: has(c, 'state_topic'), write: true }),
      ];
      const tones = strings(c.available_tones);
      if (tones)
        features.push(enumeration({ property: 'tone', name: 'Tone', type, read: false, write: true }, tones));
      if (c.support_volume_set === true)
        features.push(
          numeric(
            { property: 'volume_level', name: 'Volume', type, read: false, write: true },
            { min: 0, max: 1, step: 0.01 },
          ),
        );
      if (c.support_duration === true)
        features.push(
          numeric(
            { property: 'duration', name: 'Duration', type, read: false, write: true },
            { min: 0 },
            's',
          ),
        );
      return composite(id, name, type, features);
    }
    case 'update': {
      const read = has(c, 'state_topic');
      const features = [
        textual({ property: 'installed_version', name: 'Installed version', type, read, write: false }),
        textual({
          property: 'latest_version',
          name: 'Latest version',
          type,
          read: read || has(c, 'latest_version_topic'),
          write: false,
        }),
        binary({ property: 'in_progress', name: 'In progress', type, read, write: false }),
        numeric(
          { property: 'update_percentage', name: 'Progress', type, read, write: false },
          { min: 0, max: 100 },
          '%',
        ),
      ];
      if (has(c, 'command_topic') && c.payload_install !== undefined && c.payload_install !== null)
        features.push(
          enumeration({ property: 'command', name: 'Command', type, read: false, write: true }, ['install']),
        );
      return composite(id, name, type, features);
    }
    default: {
      const features = partsOf(e).map((part) => partCapability(e, part));
      if (e.component === 'fan' && (has(c, 'percentage_command_topic') || has(c, 'percentage_state_topic'))) {
        const [low, high] = speedRange(c);
        features.splice(
          1,
          0,
          numeric(
            {
              property: 'percentage',
              name: 'Speed',
              type,
              read: has(c, 'percentage_state_topic'),
              write: has(c, 'percentage_command_topic'),
            },
            { min: 0, max: 100, step: Math.round(10_000 / (high - low + 1)) / 100 },
            '%',
          ),
        );
      }
      return composite(id, name, type, features);
    }
  }
}

/** A device trigger's action value: `<type>_<subtype>` (e.g. `button_short_press_button_1`). */
export const triggerName = (c: JsonObject) => [str(c.type), str(c.subtype)].filter(Boolean).join('_');

// ── topics ─────────────────────────────────────────────────────────────────────────────────────

/** The topics an entity listens on, by config key (state topics, attributes, availability aside). */
export function stateTopics(e: EntityConfig): [key: string, topic: string][] {
  const c = e.config;
  const out: [string, string][] = [];
  for (const [key, value] of Object.entries(c)) {
    if (typeof value !== 'string' || value === '') continue;
    if (key === 'json_attributes_topic') continue;
    if (
      key.endsWith('_topic') &&
      !key.endsWith('command_topic') &&
      key !== 'availability_topic' &&
      key !== 'set_position_topic' &&
      key !== 'set_fan_speed_topic'
    )
      out.push([key, value]);
  }
  if (e.component === 'device_automation' && typeof c.topic === 'string') out.push(['topic', c.topic]);
  return out;
}

// ── state ──────────────────────────────────────────────────────────────────────────────────────

/** Renders a value template for a message (no template: the payload as text). */
function rendered(
  c: JsonObject,
  templateKey: string | undefined,
  message: Payload,
  templates: TemplateEngine,
): { ok: true; text: string } | { ok: false; error: string } {
  const template = templateKey ? c[templateKey] : undefined;
  if (typeof template !== 'string' || template === '') return { ok: true, text: message.value(c.encoding) };
  const result = templates.render(template, message.variables(c.encoding));
  return result.ok ? result : { ok: false, error: `${templateKey}: ${result.error}` };
}

/** Text, a boolean or a finite number: equal only when identical (JSON would print them apart). */
const plain = (value: unknown) =>
  typeof value === 'string' ||
  typeof value === 'boolean' ||
  (typeof value === 'number' && Number.isFinite(value));
const plainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' &&
  value !== null &&
  (Object.getPrototypeOf(value) === Object.prototype || Object.getPrototypeOf(value) === null);

/**
 * Whether JSON prints a and b alike, for data of text, booleans, finite numbers, null, lists and
 * plain objects whose keys come in the same order; undefined for anything else (JSON decides).
 */
function printedAlike(a: unknown, b: unknown): boolean | undefined {
  if (plain(a) || a === null) return plain(b) || b === null ? a === b : undefined;
  if (Array.isArray(a)) {
    if (!Array.isArray(b)) return undefined;
    if (a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) {
      const alike = printedAlike(a[i], b[i]);
      if (alike !== true) return alike;
    }
    return true;
  }
  if (!plainObject(a) || !plainObject(b)) return undefined;
  const keys = Object.keys(a);
  const others = Object.keys(b);
  // Keys JSON leaves out (undefined values) may make different keys print alike: JSON decides.
  if (keys.length !== others.length) return undefined;
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i] as string;
    if (key !== others[i]) return undefined;
    const alike = printedAlike(a[key], b[key]);
    if (alike !== true) return alike;
  }
  return true;
}

/** Whether a decoded value is the one before, as JSON prints them. */
const same = (a: unknown, b: unknown) =>
  a === b || (printedAlike(a, b) ?? JSON.stringify(a) === JSON.stringify(b));
const asObject = (value: unknown): JsonObject => (isObject(value) ? { ...value } : {});

/** Decodes a part's rendered text; undefined: no change. */
function partValue(part: Part, c: JsonObject, textValue: string): unknown {
  const resetPayload =
    part.reset === undefined ? undefined : part.reset === 'None' ? 'None' : str(c[part.reset] ?? 'None');
  if (textValue === 'None' || (resetPayload !== undefined && textValue === resetPayload))
    return part.kind === 'binary' ? undefined : null;
  if (textValue === '') return undefined;
  switch (part.kind) {
    case 'number':
      return parseNumber(textValue);
    case 'binary': {
      const on = str(c[part.on?.[0] ?? ''] ?? part.on?.[1]);
      const off = str(c[part.off?.[0] ?? ''] ?? part.off?.[1]);
      return textValue === on ? true : textValue === off ? false : undefined;
    }
    case 'enum': {
      const values = part.fixed ?? part.values?.(c);
      return values && !values.includes(textValue) ? undefined : textValue;
    }
    default:
      return textValue;
  }
}

/**
 * What a message on one of the entity's topics (its config key `key`) does to its value
 * (`current`); never throws: a template that fails is reported in `error`, the value unchanged.
 */
export function decode(
  e: EntityConfig,
  key: string,
  message: Payload,
  current: unknown,
  templates: TemplateEngine,
): Decoded {
  const c = e.config;
  const unchanged = (error?: string): Decoded => ({
    value: current,
    changed: false,
    ...(error ? { error } : {}),
  });
  const result = (value: unknown): Decoded => ({ value, changed: !same(value, current) });
  switch (e.component) {
    case 'sensor': {
      const r = rendered(c, 'value_template', message, templates);
      if (!r.ok) return unchanged(r.error);
      if (r.text === '') return unchanged();
      if (r.text === 'None') return result(null);
      if (!numericSensor(c)) return result(r.text);
      const value = parseNumber(r.text);
      return value === undefined ? unchanged() : result(value);
    }
    case 'binary_sensor':
    case 'switch': {
      const r = rendered(c, 'value_template', message, templates);
      if (!r.ok) return unchanged(r.error);
      const on = str(c.state_on ?? c.payload_on ?? 'ON');
      const off = str(c.state_off ?? c.payload_off ?? 'OFF');
      if (r.text === on) return result(true);
      if (r.text === off) return result(false);
      if (r.text === 'None') return result(null);
      return unchanged();
    }
    case 'number': {
      const r = rendered(c, 'value_template', message, templates);
      if (!r.ok) return unchanged(r.error);
      if (r.text === str(c.payload_reset ?? 'None')) return result(null);
      const value = parseNumber(r.text);
      if (value === undefined || value < num(c.min, 1) || value > num(c.max, 100)) return unchanged();
      return result(value);
    }
    case 'select': {
      const r = rendered(c, 'value_template', message, templates);
      if (!r.ok) return unchanged(r.error);
      if (r.text === 'None') return result(null);
      return (strings(c.options) ?? []).includes(r.text) ? result(r.text) : unchanged();
    }
    case 'text': {
      const r = rendered(c, 'value_template', message, templates);
      if (!r.ok) return unchanged(r.error);
      return r.text.length > num(c.max, 255) ? unchanged() : result(r.text);
    }
    case 'device_tracker': {
      const r = rendered(c, 'value_template', message, templates);
      if (!r.ok) return unchanged(r.error);
      if (r.text === str(c.payload_reset ?? 'None')) return result(null);
      if (r.text === str(c.payload_home ?? 'home')) return result('home');
      if (r.text === str(c.payload_not_home ?? 'not_home')) return result('not_home');
      return r.text === '' ? unchanged() : result(r.text);
    }
    case 'event': {
      const r = rendered(c, 'value_template', message, templates);
      if (!r.ok) return unchanged(r.error);
      let parsed: unknown;
      try {
        parsed = JSON.parse(r.text);
      } catch {
        return unchanged();
      }
      const type = isObject(parsed) ? parsed.event_type : undefined;
      if (typeof type !== 'string' || !(strings(c.event_types) ?? []).includes(type)) return unchanged();
      // The same event again is news too: always reported.
      return { value: type, changed: true };
    }
    case 'device_automation': {
      const r = rendered(c, 'value_template', message, templates);
      if (!r.ok) return unchanged(r.error);
      if (c.payload !== undefined && c.payload !== null && r.text !== str(c.payload)) return unchanged();
      return { value: triggerName(c), changed: true };
    }
    case 'light':
      return decodeLight(e, key, message, current, templates);
    case 'cover':
      return decodeCover(e, key, message, current, templates);
    case 'valve':
      return decodeValve(e, message, current, templates);
    case 'lock': {
      const r = rendered(c, 'value_template', message, templates);
      if (!r.ok) return unchanged(r.error);
      const states: [string, string, string][] = [
        ['locked', 'state_locked', 'LOCKED'],
        ['unlocked', 'state_unlocked', 'UNLOCKED'],
        ['jammed', 'state_jammed', 'JAMMED'],
        ['locking', 'state_locking', 'LOCKING'],
        ['unlocking', 'state_unlocking', 'UNLOCKING'],
        ['open', 'state_open', 'OPEN'],
        ['opening', 'state_opening', 'OPENING'],
      ];
      const match = states.find(([, k, fallback]) => r.text === str(c[k] ?? fallback));
      if (!match) return r.text === 'None' ? result({ ...asObject(current), state: null }) : unchanged();
      return result({ ...asObject(current), state: match[0] });
    }
    case 'alarm_control_panel': {
      const r = rendered(c, 'value_template', message, templates);
      if (!r.ok) return unchanged(r.error);
      if (!ALARM_STATES.includes(r.text))
        return r.text === 'None' ? result({ ...asObject(current), state: null }) : unchanged();
      return result({ ...asObject(current), state: r.text });
    }
    case 'vacuum': {
      const r = rendered(c, 'value_template', message, templates);
      if (!r.ok) return unchanged(r.error);
      let parsed: unknown;
      try {
        parsed = JSON.parse(r.text);
      } catch {
        return unchanged();
      }
      if (!isObject(parsed)) return unchanged();
      const next = asObject(current);
      if (typeof parsed.state === 'string' && VACUUM_STATES.includes(parsed.state)) next.state = parsed.state;
      if (typeof parsed.battery_level === 'number') next.battery_level = parsed.battery_level;
      if (typeof parsed.fan_speed === 'string') next.fan_speed = parsed.fan_speed;
      return result(next);
    }
    case 'siren': {
      const r = rendered(c, 'state_value_template', message, templates);
      if (!r.ok) return unchanged(r.error);
      const next = asObject(current);
      let stateText = r.text;
      try {
        const parsed = JSON.parse(r.text);
        if (isObject(parsed)) {
          stateText = typeof parsed.state === 'string' ? parsed.state : '';
          for (const k of ['tone', 'volume_level', 'duration'])
            if (parsed[k] !== undefined) next[k] = parsed[k];
        }
      } catch {
        // plain text
      }
      const on = str(c.state_on ?? c.payload_on ?? 'ON');
      const off = str(c.state_off ?? c.payload_off ?? 'OFF');
      if (stateText === on) next.state = true;
      else if (stateText === off) next.state = false;
      return result(next);
    }
    case 'update': {
      const next = asObject(current);
      if (key === 'latest_version_topic') {
        const r = rendered(c, 'latest_version_template', message, templates);
        if (!r.ok) return unchanged(r.error);
        if (r.text !== '') next.latest_version = r.text;
        return result(next);
      }
      const r = rendered(c, 'value_template', message, templates);
      if (!r.ok) return unchanged(r.error);
      let parsed: unknown;
      try {
        parsed = JSON.parse(r.text);
      } catch {
        parsed = undefined;
      }
      if (isObject(parsed)) {
        for (const k of [
          'installed_version',
          'latest_version',
          'title',
          'release_summary',
          'release_url',
          'in_progress',
          'update_percentage',
        ])
          if (parsed[k] !== undefined) next[k] = parsed[k];
      } else if (r.text !== '') next.installed_version = r.text;
      return result(next);
    }
    default:
      return decodeParts(e, key, message, current, templates);
  }
}

function decodeParts(
  e: EntityConfig,
  key: string,
  message: Payload,
  current: unknown,
  templates: TemplateEngine,
): Decoded {
  const c = e.config;
  const next = asObject(current);
  let error: string | undefined;
  for (const part of partsOf(e)) {
    if (!part.state || part.state[0] !== key) continue;
    const r = rendered(c, part.state[1], message, templates);
    if (!r.ok) {
      error ??= r.error;
      continue;
    }
    const value = partValue(part, c, r.text);
    if (value !== undefined) next[part.feature] = value;
  }
  if (e.component === 'fan' && key === 'percentage_state_topic') {
    const r = rendered(c, 'percentage_value_template', message, templates);
    if (!r.ok) error ??= r.error;
    else if (r.text === str(c.payload_reset_percentage ?? 'None')) next.percentage = null;
    else {
      const ranged = parseNumber(r.text);
      if (ranged !== undefined) {
        const [low, high] = speedRange(c);
        // ranged_value_to_percentage: the share of the range's steps, rounded down.
        next.percentage =
          ranged <= 0 ? 0 : Math.min(100, Math.floor(((ranged - low + 1) * 100) / (high - low + 1)));
      }
    }
  }
  const changed = !same(next, current);
  return { value: next, changed, ...(error ? { error } : {}) };
}

const speedRange = (c: JsonObject): [number, number] => [
  num(c.speed_range_min, 1),
  num(c.speed_range_max, 100),
];

function parseTriple(text: string, count: number): number[] | undefined {
  const parts = text.split(',').map((p) => parseNumber(p));
  return parts.length === count && parts.every((p) => p !== undefined) ? (parts as number[]) : undefined;
}

function decodeLight(
  e: EntityConfig,
  key: string,
  message: Payload,
  current: unknown,
  templates: TemplateEngine,
): Decoded {
  const c = e.config;
  const next = asObject(current);
  const schema = lightSchema(c);
  const done = (error?: string): Decoded => ({
    value: next,
    changed: !same(next, current),
    ...(error ? { error } : {}),
  });
  if (schema === 'json') {
    const parsed = message.json;
    if (!isObject(parsed)) return done();
    if (parsed.state === 'ON') next.state = true;
    else if (parsed.state === 'OFF') next.state = false;
    else if (parsed.state === null) next.state = null;
    if (typeof parsed.brightness === 'number') next.brightness = parsed.brightness;
    if (typeof parsed.color_temp === 'number') next.color_temp = parsed.color_temp;
    if (typeof parsed.effect === 'string') next.effect = parsed.effect;
    if (typeof parsed.color_mode === 'string') next.color_mode = parsed.color_mode;
    if (isObject(parsed.color)) {
      const colour = parsed.color;
      if (typeof colour.r === 'number' && typeof colour.g === 'number' && typeof colour.b === 'number')
        next.color = { r: colour.r, g: colour.g, b: colour.b };
      else if (typeof colour.h === 'number' && typeof colour.s === 'number')
        next.color = { hue: colour.h, saturation: colour.s };
      else if (typeof colour.x === 'number' && typeof colour.y === 'number')
        next.color = { x: colour.x, y: colour.y };
    }
    return done();
  }
  if (schema === 'template') {
    let error: string | undefined;
    const render = (templateKey: string) => {
      const r = rendered(c, templateKey, message, templates);
      if (!r.ok) error ??= r.error;
      return r.ok ? r.text : '';
    };
    if (has(c, 'state_template')) {
      const state = render('state_template');
      if (state === 'on') next.state = true;
      else if (state === 'off') next.state = false;
    }
    for (const [feature, templateKey] of [
      ['brightness', 'brightness_template'],
      ['color_temp', 'color_temp_template'],
    ] as const) {
      if (!has(c, templateKey)) continue;
      const value = parseNumber(render(templateKey));
      if (value !== undefined) next[feature] = value;
    }
    if (has(c, 'red_template')) {
      const rgb = [render('red_template'), render('green_template'), render('blue_template')].map(
        parseNumber,
      );
      if (rgb.every((v) => v !== undefined)) next.color = { r: rgb[0], g: rgb[1], b: rgb[2] };
    }
    if (has(c, 'effect_template')) {
      const effect = render('effect_template');
      if (effect && (strings(c.effect_list) ?? []).includes(effect)) next.effect = effect;
    }
    return done(error);
  }
  const templateFor: Record<string, string> = {
    state_topic: 'state_value_template',
    brightness_state_topic: 'brightness_value_template',
    color_temp_state_topic: 'color_temp_value_template',
    effect_state_topic: 'effect_value_template',
    rgb_state_topic: 'rgb_value_template',
    rgbw_state_topic: 'rgbw_value_template',
    rgbww_state_topic: 'rgbww_value_template',
    hs_state_topic: 'hs_value_template',
    xy_state_topic: 'xy_value_template',
    color_mode_state_topic: 'color_mode_value_template',
  };
  const templateKey = templateFor[key];
  if (!templateKey) return done();
  const r = rendered(c, templateKey, message, templates);
  if (!r.ok) return done(r.error);
  const value = r.text;
  if (value === '') return done();
  switch (key) {
    case 'state_topic': {
      const on = str(c.payload_on ?? 'ON');
      const off = str(c.payload_off ?? 'OFF');
      if (value === on) next.state = true;
      else if (value === off) next.state = false;
      else if (value === 'None') next.state = null;
      break;
    }
    case 'brightness_state_topic':
    case 'color_temp_state_topic': {
      const parsed = parseNumber(value);
      if (parsed !== undefined) next[key === 'brightness_state_topic' ? 'brightness' : 'color_temp'] = parsed;
      break;
    }
    case 'effect_state_topic':
      if ((strings(c.effect_list) ?? []).includes(value)) next.effect = value;
      break;
    case 'rgb_state_topic':
    case 'rgbw_state_topic':
    case 'rgbww_state_topic': {
      const count = key === 'rgb_state_topic' ? 3 : key === 'rgbw_state_topic' ? 4 : 5;
      const parts = parseTriple(value, count);
      if (parts)
        next.color = {
          r: parts[0],
          g: parts[1],
          b: parts[2],
          ...(count >= 4 ? { w: parts[3] } : {}),
          ...(count === 5 ? { ww: parts[4] } : {}),
        };
      break;
    }
    case 'hs_state_topic': {
      const parts = parseTriple(value, 2);
      if (parts) next.color = { hue: parts[0], saturation: parts[1] };
      break;
    }
    case 'xy_state_topic': {
      const parts = parseTriple(value, 2);
      if (parts) next.color = { x: parts[0], y: parts[1] };
      break;
    }
    case 'color_mode_state_topic':
      next.color_mode = value;
      break;
  }
  return done();
}

/** A device position scaled to 0–100 % between its closed and open positions. */
const toPercent = (raw: number, closed: number, open: number) =>
  open === closed ? 0 : Math.max(0, Math.min(100, Math.round(((raw - closed) * 100) / (open - closed))));
const fromPercent = (percent: number, closed: number, open: number) =>
  Math.round(closed + ((open - closed) * percent) / 100);

function coverStateOf(c: JsonObject, text: string): string | undefined {
  const states: [string, string, string][] = [
    ['open', 'state_open', 'open'],
    ['opening', 'state_opening', 'opening'],
    ['closed', 'state_closed', 'closed'],
    ['closing', 'state_closing', 'closing'],
    ['stopped', 'state_stopped', 'stopped'],
  ];
  return states.find(([, key, fallback]) => text === str(c[key] ?? fallback))?.[0];
}

function decodeCover(
  e: EntityConfig,
  key: string,
  message: Payload,
  current: unknown,
  templates: TemplateEngine,
): Decoded {
  const c = e.config;
  const next = asObject(current);
  const done = (error?: string): Decoded => ({
    value: next,
    changed: !same(next, current),
    ...(error ? { error } : {}),
  });
  let error: string | undefined;
  if (key === 'state_topic') {
    const r = rendered(c, 'value_template', message, templates);
    if (!r.ok) error = r.error;
    else {
      const state = coverStateOf(c, r.text);
      if (state) next.state = state;
      else if (r.text === 'None') next.state = null;
    }
  }
  if (key === 'position_topic') {
    const r = rendered(c, 'position_template', message, templates);
    if (!r.ok) error ??= r.error;
    else {
      const raw = parseNumber(r.text);
      if (raw !== undefined) {
        next.position = toPercent(raw, num(c.position_closed, 0), num(c.position_open, 100));
        // Without a state topic the state follows the position.
        if (!has(c, 'state_topic')) next.state = next.position === 0 ? 'closed' : 'open';
      }
    }
  }
  if (key === 'tilt_status_topic') {
    const r = rendered(c, 'tilt_status_template', message, templates);
    if (!r.ok) error ??= r.error;
    else {
      const raw = parseNumber(r.text);
      if (raw !== undefined) next.tilt = toPercent(raw, num(c.tilt_min, 0), num(c.tilt_max, 100));
    }
  }
  return done(error);
}

function decodeValve(
  e: EntityConfig,
  message: Payload,
  current: unknown,
  templates: TemplateEngine,
): Decoded {
  const c = e.config;
  const next = asObject(current);
  const done = (error?: string): Decoded => ({
    value: next,
    changed: !same(next, current),
    ...(error ? { error } : {}),
  });
  const r = rendered(c, 'value_template', message, templates);
  if (!r.ok) return done(r.error);
  const closed = num(c.position_closed, 0);
  const open = num(c.position_open, 100);
  const apply = (stateText: string | undefined, position: number | undefined) => {
    const state = stateText === undefined ? undefined : coverStateOf(c, stateText);
    if (c.reports_position === true && position !== undefined) {
      next.position = toPercent(position, closed, open);
      if (!state) next.state = next.position === 0 ? 'closed' : 'open';
    }
    if (state) {
      next.state = state;
      if (c.reports_position === true && position === undefined) {
        if (state === 'open') next.position = 100;
        if (state === 'closed') next.position = 0;
      }
    }
  };
  let parsed: unknown;
  try {
    parsed = JSON.parse(r.text);
  } catch {
    parsed = undefined;
  }
  if (isObject(parsed))
    apply(
      typeof parsed.state === 'string' ? parsed.state : undefined,
      typeof parsed.position === 'number' ? parsed.position : undefined,
    );
  else if (c.reports_position === true && parseNumber(r.text) !== undefined)
    apply(undefined, parseNumber(r.text));
  else apply(r.text, undefined);
  return done();
}

// ── commands ───────────────────────────────────────────────────────────────────────────────────

const qosOf = (c: JsonObject): 0 | 1 | 2 => (c.qos === 1 || c.qos === 2 ? c.qos : 0);

/** Thrown for a value Home Assistant would refuse (400, nothing sent). */
const refused = (path: string, reason: string) =>
  new HttpError(400, DevicehubMessages.invalidValue(path, reason));

/** What a command publishes, and the entity's value afterwards when it has no state topic to say so. */
export interface Command {
  publications: Publication[];
  /** The entity's optimistic value (no state topic: Home Assistant assumes the command worked). */
  optimistic?: unknown;
}

/** Renders a command template; a failing one refuses the command. */
function commandPayload(
  c: JsonObject,
  templateKey: string | undefined,
  variables: Record<string, unknown>,
  templates: TemplateEngine,
  fallback: string,
): string {
  const template = templateKey ? c[templateKey] : undefined;
  if (typeof template !== 'string' || template === '') return fallback;
  const result = templates.render(template, variables);
  if (!result.ok)
    throw new HttpError(
      400,
      DevicehubMessages.invalidValue(templateKey as string, `template failed: ${result.error}`),
    );
  return result.text;
}

/**
 * What Home Assistant publishes for a command to this entity: `value` is the capability's value
 * (an object of some of its parts for a composite), checked against the capability first.
 */
export function buildCommand(
  e: EntityConfig,
  capability: Capability,
  value: unknown,
  current: unknown,
  templates: TemplateEngine,
): Command {
  const c = e.config;
  const publication = (topicKey: string, payload: string): Publication => ({
    topic: c[topicKey] as string,
    payload,
    qos: qosOf(c),
    retain: c.retain === true,
  });
  const converted = convert(capability, value, capability.property);
  const optimistic = !stateTopics(e).length || c.optimistic === true;
  switch (e.component) {
    case 'switch': {
      const payload = str(converted ? (c.payload_on ?? 'ON') : (c.payload_off ?? 'OFF'));
      return {
        publications: [
          publication(
            'command_topic',
            commandPayload(c, 'command_template', { value: payload }, templates, payload),
          ),
        ],
        ...(optimistic ? { optimistic: converted } : {}),
      };
    }
    case 'number': {
      const payload = formatNumber(converted as number);
      return {
        publications: [
          publication(
            'command_topic',
            commandPayload(c, 'command_template', { value: converted }, templates, payload),
          ),
        ],
        ...(optimistic ? { optimistic: converted } : {}),
      };
    }
    case 'select':
    case 'text':
      if (e.component === 'text') {
        const text = converted as string;
        if (text.length < num(c.min, 0) || text.length > num(c.max, 255))
          throw refused(capability.property, `must be ${num(c.min, 0)} to ${num(c.max, 255)} characters`);
        if (typeof c.pattern === 'string') {
          let matches = false;
          try {
            matches = new RegExp(`^(?:${c.pattern})$`).test(text);
          } catch {
            matches = true;
          }
          if (!matches) throw refused(capability.property, 'does not match the pattern');
        }
      }
      return {
        publications: [
          publication(
            'command_topic',
            commandPayload(c, 'command_template', { value: converted }, templates, converted as string),
          ),
        ],
        ...(optimistic ? { optimistic: converted } : {}),
      };
    case 'button': {
      const payload = str(c.payload_press ?? 'PRESS');
      return {
        publications: [
          publication(
            'command_topic',
            commandPayload(c, 'command_template', { value: payload }, templates, payload),
          ),
        ],
      };
    }
    case 'scene':
      return { publications: [publication('command_topic', str(c.payload_on ?? 'ON'))] };
    case 'light':
      return lightCommand(e, converted as JsonObject, current, templates, publication);
    case 'cover':
    case 'valve':
      return coverCommand(e, converted as JsonObject, current, templates, publication);
    case 'lock': {
      const command = (converted as JsonObject).command as string;
      const [key, fallback] =
        command === 'lock'
          ? ['payload_lock', 'LOCK']
          : command === 'unlock'
            ? ['payload_unlock', 'UNLOCK']
            : ['payload_open', 'OPEN'];
      const payload = str(c[key] ?? fallback);
      return {
        publications: [
          publication(
            'command_topic',
            commandPayload(c, 'command_template', { value: payload }, templates, payload),
          ),
        ],
        ...(optimistic
          ? {
              optimistic: {
                ...asObject(current),
                state: command === 'lock' ? 'locked' : command === 'unlock' ? 'unlocked' : 'open',
              },
            }
          : {}),
      };
    }
    case 'alarm_control_panel': {
      const { command, code } = converted as { command?: string; code?: string };
      if (!command) throw refused(capability.property, 'needs a command');
      const action = ALARM_ACTIONS.find(([name]) => name === command) as [string, string, string];
      const needsCode =
        command === 'disarm'
          ? c.code_disarm_required !== false
          : command === 'trigger'
            ? c.code_trigger_required !== false
            : c.code_arm_required !== false;
      const configured = c.code === undefined || c.code === null ? undefined : str(c.code);
      if (
        configured !== undefined &&
        needsCode &&
        !configured.startsWith('REMOTE_CODE') &&
        code !== configured
      )
        throw refused(`${capability.property}.code`, 'is not the code');
      const payload = str(c[action[1]] ?? action[2]);
      const sent = commandPayload(
        c,
        'command_template',
        { action: payload, code: code ?? '' },
        templates,
        payload,
      );
      return { publications: [publication('command_topic', sent)] };
    }
    case 'vacuum': {
      const { command, fan_speed } = converted as { command?: string; fan_speed?: string };
      const publications: Publication[] = [];
      if (fan_speed !== undefined) publications.push(publication('set_fan_speed_topic', fan_speed));
      if (command !== undefined) {
        const entry = VACUUM_COMMANDS.find(([name]) => name === command) as [string, string, string, string];
        publications.push(publication('command_topic', str(c[entry[1]] ?? entry[2])));
      }
      return { publications };
    }
    case 'siren': {
      const parts = converted as JsonObject;
      const turnOff = parts.state === false;
      const payload = str(turnOff ? (c.payload_off ?? 'OFF') : (c.payload_on ?? 'ON'));
      const variables: Record<string, unknown> = { value: payload };
      for (const k of ['tone', 'volume_level', 'duration'])
        if (parts[k] !== undefined) variables[k] = parts[k];
      const sent = commandPayload(
        c,
        turnOff ? 'command_off_template' : 'command_template',
        variables,
        templates,
        payload,
      );
      return {
        publications: [publication('command_topic', sent)],
        ...(optimistic ? { optimistic: { ...asObject(current), state: !turnOff } } : {}),
      };
    }
    case 'update':
      return { publications: [publication('command_topic', str(c.payload_install))] };
    default:
      return partsCommand(e, converted as JsonObject, current, templates, publication);
  }
}

type Publish = (topicKey: string, payload: string) => Publication;

function partsCommand(
  e: EntityConfig,
  parts: JsonObject,
  current: unknown,
  templates: TemplateEngine,
  publication: Publish,
): Command {
  const c = e.config;
  const publications: Publication[] = [];
  const optimistic = asObject(current);
  let guessed = false;
  const byFeature = new Map(partsOf(e).map((part) => [part.feature, part]));
  // The power goes first (a fan turned on, then its speed), and off last.
  const order = Object.keys(parts).sort((a, b) =>
    a === 'state' ? (parts.state ? -1 : 1) : b === 'state' ? (parts.state ? 1 : -1) : 0,
  );
  for (const feature of order) {
    const value = parts[feature];
    if (e.component === 'fan' && feature === 'percentage') {
      const [low, high] = speedRange(c);
      const percent = value as number;
      // percentage_to_ranged_value, rounded up: 33 % of 1–3 is speed 1.
      const ranged = percent <= 0 ? 0 : Math.ceil(((high - low + 1) * percent) / 100) + low - 1;
      publications.push(
        publication(
          'percentage_command_topic',
          commandPayload(c, 'percentage_command_template', { value: ranged }, templates, String(ranged)),
        ),
      );
      if (!has(c, 'percentage_state_topic') || c.optimistic === true) {
        optimistic.percentage = percent;
        guessed = true;
      }
      continue;
    }
    const part = byFeature.get(feature);
    if (!part?.command) continue;
    const [topicKey, templateKey] = part.command;
    let payload: string;
    let templateValue: unknown = value;
    if (part.kind === 'binary') {
      payload = str(
        value ? (c[part.on?.[0] ?? ''] ?? part.on?.[1]) : (c[part.off?.[0] ?? ''] ?? part.off?.[1]),
      );
      templateValue = payload;
    } else payload = typeof value === 'number' ? formatNumber(value) : str(value);
    publications.push(
      publication(topicKey, commandPayload(c, templateKey, { value: templateValue }, templates, payload)),
    );
    if (!part.state || !has(c, part.state[0]) || c.optimistic === true) {
      optimistic[feature] = value;
      guessed = true;
    }
  }
  return { publications, ...(guessed ? { optimistic } : {}) };
}

function colourParts(colour: unknown): {
  rgb: Rgb;
  hs: { hue: number; saturation: number };
  xy: { x: number; y: number };
} {
  const value = colour as JsonObject;
  if (typeof value.hex === 'string') {
    const rgb = hexToRgb(value.hex);
    return { rgb, hs: rgbToHs(rgb), xy: rgbToXy(rgb) };
  }
  const hue = (value.hue ?? value.h) as number | undefined;
  const saturation = (value.saturation ?? value.s) as number | undefined;
  if (hue !== undefined && saturation !== undefined) {
    const rgb = hsToRgb(hue, saturation);
    return { rgb, hs: { hue, saturation }, xy: rgbToXy(rgb) };
  }
  const xy = { x: value.x as number, y: value.y as number };
  // xy → rgb is only needed for rgb-only lights given xy; a close enough white-point guess.
  const rgb = { r: 255, g: 255, b: 255 };
  return { rgb, hs: rgbToHs(rgb), xy };
}

function lightCommand(
  e: EntityConfig,
  parts: JsonObject,
  current: unknown,
  templates: TemplateEngine,
  publication: Publish,
): Command {
  const c = e.config;
  const schema = lightSchema(c);
  const turnOff = parts.state === false;
  const optimisticValue = { ...asObject(current), ...parts, state: !turnOff };
  const optimistic = !has(c, 'state_topic') || c.optimistic === true;
  const done = (publications: Publication[]): Command => ({
    publications,
    ...(optimistic ? { optimistic: optimisticValue } : {}),
  });
  const modes = colourModes(c);
  const colour = parts.color !== undefined ? colourParts(parts.color) : undefined;
  if (schema === 'json') {
    if (turnOff) return done([publication('command_topic', JSON.stringify({ state: 'OFF' }))]);
    const message: JsonObject = { state: 'ON' };
    if (colour) {
      if (modes.includes('rgb') || modes.includes('rgbw') || modes.includes('rgbww'))
        message.color = { ...colour.rgb };
      else if (modes.includes('hs')) message.color = { h: colour.hs.hue, s: colour.hs.saturation };
      else if (modes.includes('xy')) message.color = { x: colour.xy.x, y: colour.xy.y };
    }
    if (parts.brightness !== undefined) message.brightness = parts.brightness;
    if (parts.color_temp !== undefined) message.color_temp = parts.color_temp;
    if (parts.effect !== undefined) message.effect = parts.effect;
    return done([publication('command_topic', JSON.stringify(message))]);
  }
  if (schema === 'template') {
    const variables: Record<string, unknown> = { state: turnOff ? 'off' : 'on' };
    if (!turnOff) {
      if (parts.brightness !== undefined) variables.brightness = parts.brightness;
      if (parts.color_temp !== undefined) variables.color_temp = parts.color_temp;
      if (parts.effect !== undefined) variables.effect = parts.effect;
      if (colour)
        Object.assign(variables, {
          red: colour.rgb.r,
          green: colour.rgb.g,
          blue: colour.rgb.b,
          hue: colour.hs.hue,
          sat: colour.hs.saturation,
        });
    }
    const templateKey = turnOff ? 'command_off_template' : 'command_on_template';
    return done([publication('command_topic', commandPayload(c, templateKey, variables, templates, ''))]);
  }
  // The default schema: one topic per part; the power before or after them (on_command_type).
  const on = str(c.payload_on ?? 'ON');
  const off = str(c.payload_off ?? 'OFF');
  if (turnOff) return done([publication('command_topic', off)]);
  const publications: Publication[] = [];
  const onType = c.on_command_type ?? 'last';
  if (onType === 'first') publications.push(publication('command_topic', on));
  if (colour) {
    const number = (n: number) => formatNumber(Math.round(n * 1000) / 1000);
    if (has(c, 'rgb_command_topic'))
      publications.push(
        publication(
          'rgb_command_topic',
          commandPayload(
            c,
            'rgb_command_template',
            { red: colour.rgb.r, green: colour.rgb.g, blue: colour.rgb.b },
            templates,
            `${colour.rgb.r},${colour.rgb.g},${colour.rgb.b}`,
          ),
        ),
      );
    else if (has(c, 'hs_command_topic'))
      publications.push(
        publication(
          'hs_command_topic',
          commandPayload(
            c,
            'hs_command_template',
            { hue: colour.hs.hue, sat: colour.hs.saturation },
            templates,
            `${number(colour.hs.hue)},${number(colour.hs.saturation)}`,
          ),
        ),
      );
    else if (has(c, 'xy_command_topic'))
      publications.push(
        publication(
          'xy_command_topic',
          commandPayload(
            c,
            'xy_command_template',
            { x: colour.xy.x, y: colour.xy.y },
            templates,
            `${number(colour.xy.x)},${number(colour.xy.y)}`,
          ),
        ),
      );
  }
  const brightness =
    parts.brightness ??
    (onType === 'brightness' && parts.state !== undefined ? num(c.brightness_scale, 255) : undefined);
  if (brightness !== undefined && has(c, 'brightness_command_topic'))
    publications.push(
      publication(
        'brightness_command_topic',
        commandPayload(
          c,
          'brightness_command_template',
          { value: brightness },
          templates,
          formatNumber(brightness as number),
        ),
      ),
    );
  if (parts.color_temp !== undefined && has(c, 'color_temp_command_topic'))
    publications.push(
      publication(
        'color_temp_command_topic',
        commandPayload(
          c,
          'color_temp_command_template',
          { value: parts.color_temp },
          templates,
          formatNumber(parts.color_temp as number),
        ),
      ),
    );
  if (parts.effect !== undefined && has(c, 'effect_command_topic'))
    publications.push(
      publication(
        'effect_command_topic',
        commandPayload(c, 'effect_command_template', { value: parts.effect }, templates, str(parts.effect)),
      ),
    );
  if (parts.white !== undefined && has(c, 'white_command_topic'))
    publications.push(publication('white_command_topic', formatNumber(parts.white as number)));
  if (onType === 'last' || (onType === 'brightness' && !has(c, 'brightness_command_topic')))
    publications.push(publication('command_topic', on));
  return done(publications);
}

function coverCommand(
  e: EntityConfig,
  parts: JsonObject,
  current: unknown,
  templates: TemplateEngine,
  publication: Publish,
): Command {
  const c = e.config;
  const publications: Publication[] = [];
  const closed = num(c.position_closed, 0);
  const open = num(c.position_open, 100);
  const optimistic = asObject(current);
  let guessed = false;
  const command = parts.command as string | undefined;
  if (command !== undefined) {
    if (e.component === 'valve' && c.reports_position === true && command !== 'stop') {
      const position = command === 'open' ? open : closed;
      publications.push(
        publication(
          'command_topic',
          commandPayload(c, 'command_template', { value: position }, templates, String(position)),
        ),
      );
    } else {
      const [key, fallback] =
        command === 'open'
          ? ['payload_open', 'OPEN']
          : command === 'close'
            ? ['payload_close', 'CLOSE']
            : ['payload_stop', 'STOP'];
      const payload = str(c[key] ?? fallback);
      publications.push(
        publication(
          'command_topic',
          e.component === 'valve'
            ? commandPayload(c, 'command_template', { value: payload }, templates, payload)
            : payload,
        ),
      );
    }
    if (!has(c, 'state_topic') && !has(c, 'position_topic') && command !== 'stop') {
      optimistic.state = command === 'open' ? 'open' : 'closed';
      guessed = true;
    }
  }
  if (parts.position !== undefined) {
    const position = fromPercent(parts.position as number, closed, open);
    if (e.component === 'valve')
      publications.push(
        publication(
          'command_topic',
          commandPayload(c, 'command_template', { value: position }, templates, String(position)),
        ),
      );
    else
      publications.push(
        publication(
          'set_position_topic',
          commandPayload(
            c,
            'set_position_template',
            { position, position_open: open, position_closed: closed },
            templates,
            String(position),
          ),
        ),
      );
    if (!has(c, 'position_topic') && !has(c, 'state_topic')) {
      optimistic.position = parts.position;
      guessed = true;
    }
  }
  if (parts.tilt !== undefined) {
    const tilt = fromPercent(parts.tilt as number, num(c.tilt_min, 0), num(c.tilt_max, 100));
    publications.push(
      publication(
        'tilt_command_topic',
        commandPayload(
          c,
          'tilt_command_template',
          { tilt_position: tilt, value: tilt },
          templates,
          String(tilt),
        ),
      ),
    );
    if (!has(c, 'tilt_status_topic')) {
      optimistic.tilt = parts.tilt;
      guessed = true;
    }
  }
  return { publications, ...(guessed ? { optimistic } : {}) };
}

/** The power part a `state.on` sets: a light's, switch's, fan's, humidifier's, siren's or climate's. */
export function powerOf(e: EntityConfig): { feature: string | undefined } | undefined {
  switch (e.component) {
    case 'switch':
      return { feature: undefined };
    case 'light':
    case 'fan':
    case 'humidifier':
    case 'siren':
      return { feature: 'state' };
    case 'climate':
    case 'water_heater':
      return has(e.config, 'power_command_topic') ? { feature: 'power' } : undefined;
    default:
      return undefined;
  }
}

/** json_attributes_topic's message as attributes (json_attributes_template applied), or why not. */
export function decodeAttributes(
  e: EntityConfig,
  message: Payload,
  templates: TemplateEngine,
): { attributes?: JsonObject; error?: string } {
  const r = rendered(e.config, 'json_attributes_template', message, templates);
  if (!r.ok) return { error: r.error };
  try {
    const parsed = JSON.parse(r.text);
    return isObject(parsed) ? { attributes: parsed } : {};
  } catch {
    return {};
  }
}

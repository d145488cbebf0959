import type { Capability } from '@hearth/contracts';
import { HttpError } from '../../../http/errors.js';
import { isObject, type JsonObject } from '../../../shared/json.js';
import { DevicehubMessages } from '../../devicehub.errors.js';
import { hexToRgb, hsToRgb, type Rgb } from '../homeassistant/colours.js';
import { binary, composite, enumeration, numeric } from '../homeassistant/entities.js';
import type { ShellyEvent } from './frames.js';

/**
 * Each Shelly Gen2+ component in the hub's model (docs/devicehub.md#shelly-mapping): the parts a
 * device's status holds (switches, covers, lights, inputs, sensors, meters), their properties and
 * capabilities, their values in a status, the actions its input events become, and the RPC calls
 * a command makes. Pure.
 */

/** The kinds of light component and the method that sets each. */
const LIGHTS = { light: 'Light.Set', rgb: 'RGB.Set', rgbw: 'RGBW.Set', cct: 'CCT.Set' } as const;
type LightType = keyof typeof LIGHTS;

/** Input events that become `action` values. */
export const INPUT_EVENTS = [
  'btn_down',
  'btn_up',
  'single_push',
  'double_push',
  'triple_push',
  'long_push',
  'long_single_push',
  'single_long_push',
];
const COVER_STATES = ['open', 'closed', 'opening', 'closing', 'stopped', 'calibrating'];
/** A colour temperature range when the device does not say (Shelly's default). */
const CT_RANGE = { min: 2700, max: 6500 };

export interface ControlPart {
  kind: 'switch' | 'cover' | 'light' | 'climate';
  /** The component (`switch:0`), its type and id. */
  key: string;
  type: string;
  id: number;
  property: string;
  name: string;
  /** A cover: it knows its position (calibrated), and has slats. */
  position?: boolean;
  tilt?: boolean;
}

export interface ReadingPart {
  kind: 'reading';
  key: string;
  /** Where its value is in the component's status. */
  path: string[];
  property: string;
  name: string;
  unit: string | undefined;
  value: 'number' | 'boolean';
  /** Where else the value may be (the docs' `c_active_power` for `c_act_power`). */
  alias?: string[];
}

export type Part = ControlPart | ReadingPart;

export interface ShellyModel {
  parts: Part[];
  /** Input ids in button mode (their events are actions), and whether the device has several inputs. */
  buttons: number[];
  severalInputs: boolean;
}

/** A reading: [path in the component, property, label, unit, value]. */
type Reading = [path: string, property: string, label: string, unit: string | undefined, value?: 'boolean'];

const METERING: Reading[] = [
  ['apower', 'power', 'Power', 'W'],
  ['voltage', 'voltage', 'Voltage', 'V'],
  ['current', 'current', 'Current', 'A'],
  ['pf', 'power_factor', 'Power factor', undefined],
  ['freq', 'frequency', 'Frequency', 'Hz'],
  ['aenergy.total', 'energy', 'Energy', 'Wh'],
  ['ret_aenergy.total', 'energy_returned', 'Energy returned', 'Wh'],
  ['temperature.tC', 'device_temperature', 'Device temperature', '°C'],
];

const PHASES = ['a', 'b', 'c'];

/** The readings of each component type (controls read their own parts besides). */
const READINGS: Record<string, Reading[]> = {
  switch: METERING,
  cover: METERING,
  light: METERING,
  rgb: METERING,
  rgbw: METERING,
  cct: METERING,
  pm1: METERING,
  em1: [
    ['act_power', 'power', 'Power', 'W'],
    ['aprt_power', 'apparent_power', 'Apparent power', 'VA'],
    ['voltage', 'voltage', 'Voltage', 'V'],
    ['current', 'current', 'Current', 'A'],
    ['pf', 'power_factor', 'Power factor', undefined],
    ['freq', 'frequency', 'Frequency', 'Hz'],
  ],
  em1data: [
    ['total_act_energy', 'energy', 'Energy', 'Wh'],
    ['total_act_ret_energy', 'energy_returned', 'Energy returned', 'Wh'],
  ],
  em: [
    ...PHASES.flatMap((p): Reading[] => [
      [`${p}_act_power`, `power_${p}`, `Power ${p.toUpperCase()}`, 'W'],
      [`${p}_aprt_power`, `apparent_power_${p}`, `Apparent power ${p.toUpperCase()}`, 'VA'],
      [`${p}_voltage`, `voltage_${p}`, `Voltage ${p.toUpperCase()}`, 'V'],
      [`${p}_current`, `current_${p}`, `Current ${p.toUpperCase()}`, 'A'],
      [`${p}_pf`, `power_factor_${p}`, `Power factor ${p.toUpperCase()}`, undefined],
      [`${p}_freq`, `frequency_${p}`, `Frequency ${p.toUpperCase()}`, 'Hz'],
    ]),
    ['n_current', 'current_n', 'Current N', 'A'],
    ['total_act_power', 'power', 'Power', 'W'],
    ['total_aprt_power', 'apparent_power', 'Apparent power', 'VA'],
    ['total_current', 'current', 'Current', 'A'],
  ],
  emdata: [
    ...PHASES.flatMap((p): Reading[] => [
      [`${p}_total_act_energy`, `energy_${p}`, `Energy ${p.toUpperCase()}`, 'Wh'],
      [`${p}_total_act_ret_energy`, `energy_returned_${p}`, `Energy returned ${p.toUpperCase()}`, 'Wh'],
    ]),
    ['total_act', 'energy', 'Energy', 'Wh'],
    ['total_act_ret', 'energy_returned', 'Energy returned', 'Wh'],
  ],
  temperature: [['tC', 'temperature', 'Temperature', '°C']],
  humidity: [['rh', 'humidity', 'Humidity', '%']],
  illuminance: [['lux', 'illuminance', 'Illuminance', 'lx']],
  devicepower: [
    ['battery.percent', 'battery', 'Battery', '%'],
    ['battery.V', 'battery_voltage', 'Battery voltage', 'V'],
    ['external.present', 'external_power', 'External power', undefined, 'boolean'],
  ],
  // Zigbee2MQTT's names, which the alerts' safety rule reads (docs/alerts.md#rules).
  smoke: [
    ['alarm', 'smoke', 'Smoke', undefined, 'boolean'],
    ['mute', 'smoke_muted', 'Smoke alarm muted', undefined, 'boolean'],
  ],
  flood: [
    ['alarm', 'water_leak', 'Water leak', undefined, 'boolean'],
    ['mute', 'water_leak_muted', 'Water leak alarm muted', undefined, 'boolean'],
  ],
  voltmeter: [['voltage', 'voltage', 'Voltage', 'V']],
  input: [
    ['state', 'input', 'Input', undefined, 'boolean'],
    ['counts.total', 'input_count', 'Pulses', undefined],
    ['freq', 'input_frequency', 'Pulse frequency', 'Hz'],
    ['percent', 'input_percent', 'Input level', '%'],
  ],
  wifi: [['rssi', 'wifi_signal', 'Wi-Fi signal', 'dBm']],
};

/** The order parts are made in: controls before readings, so a switch keeps `power` before a voltmeter. */
const ORDER = [
  'thermostat',
  'switch',
  'cover',
  'light',
  'rgb',
  'rgbw',
  'cct',
  'pm1',
  'em1',
  'em1data',
  'em',
  'emdata',
  'input',
  'temperature',
  'humidity',
  'illuminance',
  'devicepower',
  'smoke',
  'flood',
  'voltmeter',
  'wifi',
];

/** A component key: `switch:0` → {type: switch, id: 0}; `wifi` → {type: wifi, id: 0}. */
export function componentOf(key: string): { type: string; id: number } | undefined {
  const match = /^([a-z0-9_]+)(?::(\d+))?$/.exec(key);
  if (!match) return undefined;
  return { type: match[1] as string, id: match[2] === undefined ? 0 : Number(match[2]) };
}

const at = (node: unknown, path: string[]): unknown => {
  let value = node;
  for (const key of path) {
    if (!isObject(value)) return undefined;
    value = value[key];
  }
  return value;
};

const LABELS: Record<string, string> = {
  switch: 'Switch',
  cover: 'Cover',
  light: 'Light',
  rgb: 'RGB',
  rgbw: 'RGBW',
  cct: 'CCT',
};

/** The parts of a device from its status (NotifyFullStatus's params, Shelly.GetStatus's result). */
export function modelOf(status: JsonObject, names: Record<string, string> = {}): ShellyModel {
  const components = Object.keys(status)
    .map((key) => ({ key, ...componentOf(key) }))
    .filter(
      (c): c is { key: string; type: string; id: number } => c.type !== undefined && ORDER.includes(c.type),
    )
    .sort((a, b) => ORDER.indexOf(a.type) - ORDER.indexOf(b.type) || a.id - b.id);
  const count = new Map<string, number>();
  for (const c of components) count.set(c.type, (count.get(c.type) ?? 0) + 1);
  const taken = new Set<string>(['action']);
  const claim = (wanted: string, type: string) => {
    let property = taken.has(wanted) ? `${type}_${wanted}` : wanted;
    for (let n = 2; taken.has(property); n++) property = `${wanted}_${n}`;
    taken.add(property);
    return property;
  };
  const parts: Part[] = [];
  const buttons: number[] = [];
  for (const { key, type, id } of components) {
    const own = isObject(status[key]) ? status[key] : {};
    const several = (count.get(type) ?? 0) > 1 || id !== 0;
    const suffix = several ? `_${id}` : '';
    const labelled = (label: string) => (several ? `${label} ${id}` : label);
    const given = names[key];
    if (type === 'switch')
      parts.push({
        kind: 'switch',
        key,
        type,
        id,
        property: claim(`state${suffix}`, type),
        name: given ?? labelled('Switch'),
      });
    else if (type === 'cover')
      parts.push({
        kind: 'cover',
        key,
        type,
        id,
        property: claim(`cover${suffix}`, type),
        name: given ?? labelled('Cover'),
        position: own.pos_control === true,
        tilt: own.slat_pos !== undefined,
      });
    else if (type === 'thermostat')
      parts.push({
        kind: 'climate',
        key,
        type,
        id,
        property: claim(`climate${suffix}`, type),
        name: given ?? labelled('Thermostat'),
      });
    else if (type in LIGHTS)
      parts.push({
        kind: 'light',
        key,
        type,
        id,
        property: claim(`${type}${suffix}`, type),
        name: given ?? labelled(LABELS[type] as string),
      });
    if (type === 'input' && own.state === null && own.counts === undefined && own.percent === undefined)
      buttons.push(id);
    for (const [path, property, label, unit, value] of READINGS[type] ?? []) {
      const steps = path.split('.');
      const alias = type === 'em' && path === 'c_act_power' ? ['c_active_power'] : undefined;
      const sample = at(own, steps) ?? (alias ? at(own, alias) : undefined);
      // A reading is there when the device reports it (an input in button mode has no state).
      if (sample === undefined || (value === 'boolean' && typeof sample !== 'boolean' && sample !== null))
        continue;
      if (type === 'input' && path === 'state' && sample === null) continue;
      parts.push({
        kind: 'reading',
        key,
        path: steps,
        property: claim(`${property}${suffix}`, type),
        name: given && several ? `${given} ${label.toLowerCase()}` : labelled(label),
        unit,
        value: value ?? 'number',
        ...(alias ? { alias } : {}),
      });
    }
  }
  return { parts, buttons, severalInputs: (count.get('input') ?? 0) > 1 };
}

/** An input event as an action value: `single_push`, or `single_push_1` on a device with several inputs. */
export const actionName = (model: ShellyModel, id: number, event: string) =>
  model.severalInputs || id !== 0 ? `${event}_${id}` : event;

/** The `action` a NotifyEvent's input events make (the last of them), if any. */
export function actionOf(model: ShellyModel, events: ShellyEvent[]): string | undefined {
  let action: string | undefined;
  for (const event of events) {
    const component = /^input:(\d+)$/.exec(event.component);
    if (!component || !/^[a-z_]{1,32}$/.test(event.event)) continue;
    action = actionName(model, Number(component[1]), event.event);
  }
  return action;
}

const leaf = (property: string, name: string, type: string, write = true) => ({
  property,
  name,
  type,
  read: true,
  write,
});

function lightFeatures(type: LightType): Capability[] {
  const features: Capability[] = [
    binary(leaf('state', 'State', 'light')),
    numeric(leaf('brightness', 'Brightness', 'light'), { min: 0, max: 100, step: 1 }, '%'),
  ];
  if (type === 'rgb' || type === 'rgbw')
    features.push({
      id: 'color',
      property: 'color',
      name: 'Color',
      kind: 'composite',
      type: 'light',
      value_type: 'object',
      access: { readOnly: false, write: true, set: true, published: true },
      metadata: { color_modes: ['rgb'], features: ['r', 'g', 'b'] },
    });
  if (type === 'rgbw') features.push(numeric(leaf('white', 'White', 'light'), { min: 0, max: 255, step: 1 }));
  if (type === 'cct')
    features.push(numeric(leaf('color_temp', 'Color temperature', 'light'), { ...CT_RANGE, step: 1 }, 'K'));
  features.push(
    numeric(
      { ...leaf('transition', 'Transition', 'light'), read: false },
      { min: 0, max: 60, step: 0.5 },
      's',
    ),
  );
  return features;
}

/** The capability of each part, and `action` when the device has inputs in button mode. */
export function capabilitiesOf(model: ShellyModel): Capability[] {
  const capabilities: Capability[] = [];
  for (const part of model.parts) {
    const metadata = { component: part.key };
    if (part.kind === 'switch')
      capabilities.push({
        ...binary(leaf(part.property, part.name, 'switch')),
        metadata: { value_on: true, value_off: false, ...metadata },
      });
    else if (part.kind === 'cover') {
      const type = 'cover';
      const features = [
        enumeration({ ...leaf('state', 'State', type), write: false }, COVER_STATES),
        enumeration({ ...leaf('command', 'Command', type), read: false }, ['open', 'close', 'stop']),
      ];
      if (part.position)
        features.push(numeric(leaf('position', 'Position', type), { min: 0, max: 100, step: 1 }, '%'));
      if (part.tilt) features.push(numeric(leaf('tilt', 'Tilt', type), { min: 0, max: 100, step: 1 }, '%'));
      const capability = composite(part.property, part.name, type, features);
      capabilities.push({ ...capability, metadata: { ...capability.metadata, ...metadata } });
    } else if (part.kind === 'climate') {
      const type = 'climate';
      const capability = composite(part.property, part.name, type, [
        enumeration(leaf('mode', 'Mode', type), ['heat', 'off']),
        numeric(leaf('target_temperature', 'Target temperature', type), { min: 5, max: 35, step: 0.5 }, '°C'),
        numeric({ ...leaf('current_temperature', 'Current temperature', type), write: false }, {}, '°C'),
        enumeration({ ...leaf('action', 'Action', type), write: false }, ['heating', 'idle', 'off']),
      ]);
      capabilities.push({ ...capability, metadata: { ...capability.metadata, ...metadata } });
    } else if (part.kind === 'light') {
      const capability = composite(part.property, part.name, 'light', lightFeatures(part.type as LightType));
      capabilities.push({ ...capability, metadata: { ...capability.metadata, ...metadata } });
    } else if (part.kind === 'reading') {
      const read = leaf(part.property, part.name, part.value === 'boolean' ? 'binary' : 'numeric', false);
      const capability =
        part.value === 'boolean'
          ? binary(read)
          : numeric(read, part.unit === '%' ? { min: 0, max: 100 } : {}, part.unit);
      const category = ['wifi_signal', 'device_temperature'].some((p) => part.property.startsWith(p))
        ? { category: 'diagnostic' }
        : {};
      capabilities.push({ ...capability, metadata: { ...capability.metadata, ...metadata, ...category } });
    }
  }
  const actions = model.buttons.flatMap((id) => INPUT_EVENTS.map((event) => actionName(model, id, event)));
  if (actions.length > 0)
    capabilities.push({
      id: 'action',
      property: 'action',
      name: 'Action',
      kind: 'enum',
      type: 'enum',
      value_type: 'enum',
      enum: actions,
      access: { readOnly: true, write: false, set: false, published: true },
      metadata: { values: actions },
    });
  return capabilities;
}

const num = (value: unknown): number | null | undefined =>
  typeof value === 'number' && Number.isFinite(value) ? value : value === null ? null : undefined;

/** Every part's value in a status (a composite's whole object); parts the status says nothing of are left out. */
export function valuesOf(model: ShellyModel, status: JsonObject): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const part of model.parts) {
    const own = status[part.key];
    if (!isObject(own)) continue;
    if (part.kind === 'switch') {
      if (typeof own.output === 'boolean') values[part.property] = own.output;
    } else if (part.kind === 'cover') {
      const value: JsonObject = {};
      if (typeof own.state === 'string') value.state = own.state;
      if (part.position && num(own.current_pos) !== undefined) value.position = num(own.current_pos);
      if (part.tilt && num(own.slat_pos) !== undefined) value.tilt = num(own.slat_pos);
      if (Object.keys(value).length > 0) values[part.property] = value;
    } else if (part.kind === 'climate') {
      const value: JsonObject = {};
      if (typeof own.enable === 'boolean') value.mode = own.enable ? 'heat' : 'off';
      if (num(own.target_C) !== undefined) value.target_temperature = num(own.target_C);
      if (num(own.current_C) !== undefined) value.current_temperature = num(own.current_C);
      if (typeof own.output === 'boolean')
        value.action = own.enable === false ? 'off' : own.output ? 'heating' : 'idle';
      if (Object.keys(value).length > 0) values[part.property] = value;
    } else if (part.kind === 'light') {
      const value: JsonObject = {};
      if (typeof own.output === 'boolean') value.state = own.output;
      if (num(own.brightness) !== undefined) value.brightness = num(own.brightness);
      if (Array.isArray(own.rgb) && own.rgb.length === 3 && own.rgb.every((c) => typeof c === 'number'))
        value.color = { r: own.rgb[0], g: own.rgb[1], b: own.rgb[2] };
      if (part.type === 'rgbw' && num(own.white) !== undefined) value.white = num(own.white);
      if (part.type === 'cct' && num(own.ct) !== undefined) value.color_temp = num(own.ct);
      if (Object.keys(value).length > 0) values[part.property] = value;
    } else if (part.kind === 'reading') {
      const raw = at(own, part.path) ?? (part.alias ? at(own, part.alias) : undefined);
      if (part.value === 'boolean') {
        if (typeof raw === 'boolean' || raw === null) values[part.property] = raw;
      } else if (num(raw) !== undefined) values[part.property] = num(raw);
    }
  }
  return values;
}

/** A colour value as the capability's check gives it (`{hex}`, or hue and saturation) in RGB. */
function rgbOf(colour: unknown, path: string): Rgb {
  const value = isObject(colour) ? colour : {};
  if (typeof value.hex === 'string') return hexToRgb(value.hex);
  const hue = value.hue ?? value.h;
  const saturation = value.saturation ?? value.s;
  if (typeof hue === 'number' && typeof saturation === 'number') return hsToRgb(hue, saturation);
  throw new HttpError(400, DevicehubMessages.invalidValue(path, 'must be a colour (#RRGGBB)'));
}

/** One RPC call: its method and params. */
export interface Call {
  method: string;
  params: JsonObject;
}

/**
 * The RPC calls that set one part to `value` (its capability's checked value; a composite's an
 * object of some of its features): `Switch.Set`, `Cover.Open`/`Close`/`Stop`/`GoToPosition`,
 * `Light.Set`, `RGB.Set`, `RGBW.Set`, `CCT.Set`, `Thermostat.SetConfig`.
 */
export function callsFor(part: Part, value: unknown): Call[] {
  if (part.kind === 'reading') return [];
  const { id } = part;
  if (part.kind === 'switch') return [{ method: 'Switch.Set', params: { id, on: value === true } }];
  const parts = isObject(value) ? value : {};
  if (part.kind === 'climate') {
    const config: JsonObject = {};
    if (typeof parts.mode === 'string') config.enable = parts.mode === 'heat';
    if (typeof parts.target_temperature === 'number') config.target_C = parts.target_temperature;
    return [{ method: 'Thermostat.SetConfig', params: { id, config } }];
  }
  if (part.kind === 'cover') {
    const calls: Call[] = [];
    const command = { open: 'Cover.Open', close: 'Cover.Close', stop: 'Cover.Stop' }[String(parts.command)];
    if (command) calls.push({ method: command, params: { id } });
    const position: JsonObject = {};
    if (typeof parts.position === 'number') position.pos = Math.round(parts.position);
    if (typeof parts.tilt === 'number') position.slat_pos = Math.round(parts.tilt);
    if (Object.keys(position).length > 0)
      calls.push({ method: 'Cover.GoToPosition', params: { id, ...position } });
    return calls;
  }
  const params: JsonObject = { id };
  if (typeof parts.state === 'boolean') params.on = parts.state;
  if (typeof parts.brightness === 'number') params.brightness = Math.round(parts.brightness);
  if (parts.color !== undefined) {
    const { r, g, b } = rgbOf(parts.color, `${part.property}.color`);
    params.rgb = [r, g, b];
  }
  if (typeof parts.white === 'number') params.white = Math.round(parts.white);
  if (typeof parts.color_temp === 'number') params.ct = Math.round(parts.color_temp);
  if (typeof parts.transition === 'number') params.transition_duration = parts.transition;
  return [{ method: LIGHTS[part.type as LightType], params }];
}

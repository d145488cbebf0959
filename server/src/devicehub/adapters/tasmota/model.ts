import type { Capability } from '@hearth/contracts';
import { isObject, type JsonObject } from '../../../shared/json.js';
import { binary, composite, enumeration, numeric, textual } from '../homeassistant/entities.js';
import { OPTION, RELAY, type TasmotaConfig } from './discovery.js';

/**
 * What a Tasmota device is in the hub's model (docs/devicehub.md#tasmota-mapping): its relays,
 * lights, shutters, fan, switches, buttons and sensors, each a part with its state property and
 * capability, as Home Assistant's Tasmota integration reads the discovery. Pure.
 */

export const LIGHT = { none: 0, dimmer: 1, coldWarm: 2, rgb: 3, rgbw: 4, rgbcw: 5 } as const;

/** Tasmota's `Scheme` numbers 0–4, in the names Home Assistant shows. */
export const EFFECTS = ['Solid', 'Wake up', 'Cycle up', 'Cycle down', 'Random'];
/** Switch modes 13 and 14 (push-on): only `stat/RESULT`'s Action counts, and it turns off after 1 s. */
export const PUSH_ON_MODES = new Set([13, 14]);
const FAN_SPEEDS = 3;
/** Switch modes whose actions are only ON and OFF: the switch's state, not events. */
const FOLLOWING_MODES = new Set([1, 2, 13, 14]);
/** Most sensor leaves one device may have. */
export const MAX_SENSOR_LEAVES = 256;

export interface RelayPart {
  kind: 'relay';
  /** Its relay (POWER<index+1>). */
  index: number;
  property: string;
  name: string;
  /** A relay shown as a light (SetOption30, an iFan's light): an on/off light. */
  asLight: boolean;
}

export interface LightPart {
  kind: 'light';
  index: number;
  property: string;
  name: string;
  lightType: number;
  /** The command that dims it (`Dimmer`, `Dimmer1`, `Dimmer3` on a Tuya MCU, `Channel<n>`). */
  dimmerCommand: string;
  /** The key its brightness comes under (`Dimmer`, `Dimmer2`, `Channel<n>`). */
  dimmerState: string;
  minMireds: number;
  maxMireds: number;
  /** SetOption20: dimming does not turn it on, so a command sends Power too. */
  notPowerLinked: boolean;
  /** SetOption117: a fade takes a fixed time. */
  fadeFixedDuration: boolean;
  transition: boolean;
}

export interface ShutterPart {
  kind: 'shutter';
  /** Shutter<index+1>. */
  index: number;
  property: string;
  name: string;
  inverted: boolean;
  tilt: { min: number; max: number } | undefined;
}

export interface FanPart {
  kind: 'fan';
  property: string;
  name: string;
}

export interface SwitchPart {
  kind: 'switch';
  /** Switch<index+1>. */
  index: number;
  property: string;
  name: string;
  /** Its key in messages: its `swn` name, else `Switch<n>`. */
  key: string;
  mode: number;
}

export interface SensorPart {
  kind: 'sensor';
  /** Where its value is in `tele/SENSOR` (and under `StatusSNS` in `stat/STATUS10`). */
  path: (string | number)[];
  quantity: string;
  property: string;
  name: string;
  unit: string | undefined;
  numeric: boolean;
}

export interface WifiPart {
  kind: 'wifi';
  /** `Wifi.RSSI` (quality, %) or `Wifi.Signal` (dBm). */
  key: 'RSSI' | 'Signal';
  property: string;
  name: string;
}

export type Part = RelayPart | LightPart | ShutterPart | FanPart | SwitchPart | SensorPart | WifiPart;

/** A device's parts, and the actions its buttons and switches report (`action`). */
export interface TasmotaModel {
  config: TasmotaConfig;
  parts: Part[];
  /** `Button<n>` numbers (1-based) that report presses. */
  buttons: number[];
}

/** Sensors Home Assistant's integration leaves out, and what is never a sensor. */
const IGNORED_SENSORS = new Set(['Time', 'PN532', 'RDM6300']);

/** Units by quantity (the integration's table). */
const UNITS: Record<string, string> = {
  ApparentPower: 'VA',
  Battery: '%',
  Current: 'A',
  CurrentNeutral: 'A',
  Distance: 'cm',
  Frequency: 'Hz',
  Humidity: '%',
  Illuminance: 'lx',
  Moisture: '%',
  'PB0.3': 'ppd',
  'PB0.5': 'ppd',
  PB1: 'ppd',
  'PB2.5': 'ppd',
  PB5: 'ppd',
  PB10: 'ppd',
  PM1: 'µg/m³',
  'PM2.5': 'µg/m³',
  PM10: 'µg/m³',
  CF1: 'µg/m³',
  'CF2.5': 'µg/m³',
  CF10: 'µg/m³',
  PhaseAngle: '°',
  Factor: 'cos φ',
  Power: 'W',
  ActivePower: 'W',
  ReactivePower: 'var',
  Today: 'kWh',
  Total: 'kWh',
  TotalTariff: 'kWh',
  ExportTariff: 'kWh',
  Yesterday: 'kWh',
  Energy: 'kWh',
  ExportActive: 'kWh',
  ImportActive: 'kWh',
  ExportReactive: 'kvarh',
  ImportReactive: 'kvarh',
  Voltage: 'V',
  Weight: 'kg',
  CarbonDioxide: 'ppm',
  eCO2: 'ppm',
  TVOC: 'ppb',
  CCT: 'K',
  Ambient: 'lx',
};

/** Quantities whose unit the device names beside them (`TempUnit`, `PressureUnit`, `SpeedUnit`). */
const DYNAMIC_UNITS: Record<string, string> = {
  Temperature: 'TempUnit',
  DewPoint: 'TempUnit',
  Pressure: 'PressureUnit',
  SeaPressure: 'PressureUnit',
  Speed: 'SpeedUnit',
};

const DEVICE_CLASSES: Record<string, string> = {
  Temperature: 'temperature',
  DewPoint: 'temperature',
  Humidity: 'humidity',
  Pressure: 'pressure',
  SeaPressure: 'pressure',
  Illuminance: 'illuminance',
  Ambient: 'illuminance',
  Power: 'power',
  ApparentPower: 'apparent_power',
  ReactivePower: 'reactive_power',
  Total: 'energy',
  Today: 'energy',
  Yesterday: 'energy',
  Voltage: 'voltage',
  Current: 'current',
  Frequency: 'frequency',
  Factor: 'power_factor',
  Battery: 'battery',
  CarbonDioxide: 'carbon_dioxide',
  'PM2.5': 'pm25',
  PM10: 'pm10',
  PM1: 'pm1',
};

function unitOf(quantity: string, sensors: JsonObject): string | undefined {
  const dynamic = DYNAMIC_UNITS[quantity];
  if (dynamic) {
    const unit = sensors[dynamic];
    if (typeof unit !== 'string') return undefined;
    return unit === 'C' ? '°C' : unit === 'F' ? '°F' : unit;
  }
  return UNITS[quantity];
}

/** A state property from Tasmota's names: `DS18B20-1 Temperature` → `ds18b20_1_temperature`. */
export const propertyOf = (path: (string | number)[]) =>
  path
    .map(String)
    .join('_')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '') || 'sensor';

/** Each relay's name: its friendly name, else the device's name with the relay's number. */
function relayName(config: TasmotaConfig, index: number, several: boolean): string {
  const given = config.friendlyNames[index];
  if (typeof given === 'string' && given.trim() !== '') return given;
  return several ? `${config.deviceName} ${index + 1}` : config.deviceName;
}

function lightPart(config: TasmotaConfig, index: number, property: string, name: string): LightPart {
  const options = config.options;
  let lightType = config.lightSubtype;
  let dimmerCommand = config.tuya ? 'Dimmer3' : 'Dimmer';
  let dimmerState = 'Dimmer';
  if (options.get(OPTION.pwmMultiChannels) === 1) {
    // Multi-channel PWM: each channel a dimmer of its own.
    dimmerCommand = `Channel${index + 1}`;
    dimmerState = `Channel${index + 1}`;
    lightType = LIGHT.dimmer;
  } else if (!config.linked && config.lightSubtype >= LIGHT.rgbw) {
    // Unlinked RGB and white: the first light is the colour (Dimmer1), the second the white (Dimmer2).
    const first = config.relays.indexOf(RELAY.light);
    if (index - first === 0) {
      dimmerCommand = 'Dimmer1';
      dimmerState = 'Dimmer1';
      lightType = LIGHT.rgb;
    } else if (index - first === 1) {
      dimmerCommand = 'Dimmer2';
      dimmerState = 'Dimmer2';
      lightType = config.lightSubtype === LIGHT.rgbw ? LIGHT.dimmer : LIGHT.coldWarm;
    }
  }
  const reduced = options.get(OPTION.reducedCtRange) === 1;
  return {
    kind: 'light',
    index,
    property,
    name,
    lightType,
    dimmerCommand,
    dimmerState,
    minMireds: reduced ? 200 : 153,
    maxMireds: reduced ? 380 : 500,
    notPowerLinked: options.get(OPTION.notPowerLinked) === 1,
    fadeFixedDuration: options.get(OPTION.fadeFixedDuration) === 1,
    transition: lightType !== LIGHT.none && !config.tuya,
  };
}

/** Shutters take two consecutive relays each (at most four); a half pair makes none. */
function shutterIndices(relays: number[]): number[] {
  const found: number[] = [];
  for (let i = 0; i < relays.length; i++) {
    if (relays[i] !== RELAY.shutter) continue;
    if (relays[i + 1] !== RELAY.shutter) return [];
    found.push(i);
    i++;
  }
  return found.slice(0, 4);
}

/** The sensor leaves of a `sensors` message: one per value, nested objects and lists unfolded. */
export function sensorLeaves(
  sensors: JsonObject,
  shutters: number,
): { path: (string | number)[]; quantity: string; sample: unknown }[] {
  const leaves: { path: (string | number)[]; quantity: string; sample: unknown }[] = [];
  for (const [key, sensor] of Object.entries(sensors)) {
    if (IGNORED_SENSORS.has(key) || !isObject(sensor)) continue;
    // A shutter's position is its cover's state.
    const shutter = /^Shutter(\d)$/.exec(key);
    if (shutter && Number(shutter[1]) <= shutters) continue;
    for (const [quantity, value] of Object.entries(sensor)) {
      if (isObject(value)) {
        for (const [leaf, sample] of Object.entries(value))
          leaves.push({ path: [key, quantity, leaf], quantity, sample });
      } else if (Array.isArray(value)) {
        for (const [i, sample] of value.entries())
          leaves.push({ path: [key, quantity, i], quantity, sample });
      } else leaves.push({ path: [key, quantity], quantity, sample: value });
      if (leaves.length >= MAX_SENSOR_LEAVES) return leaves.slice(0, MAX_SENSOR_LEAVES);
    }
  }
  return leaves;
}

/** A device's parts from its `config` and (once it came) its `sensors` message. */
export function modelOf(config: TasmotaConfig, sensors?: JsonObject): TasmotaModel {
  const parts: Part[] = [];
  const taken = new Set<string>(['action']);
  const claim = (wanted: string) => {
    let property = wanted;
    for (let n = 2; taken.has(property); n++) property = `${wanted}_${n}`;
    taken.add(property);
    return property;
  };
  const forceLight = config.options.get(OPTION.hassLight) === 1;
  const relays = [...config.relays];
  // An iFan's light is one on/off light.
  if (config.ifan && relays[0] === RELAY.light) relays[0] = RELAY.relay;
  const lights = relays.filter((r) => r === RELAY.light).length;
  const switches = relays.filter((r) => r === RELAY.relay).length;
  relays.forEach((relay, index) => {
    if (relay === RELAY.light) {
      const property = claim(lights > 1 ? `light_${index + 1}` : 'light');
      parts.push(lightPart(config, index, property, relayName(config, index, lights > 1)));
    } else if (relay === RELAY.relay) {
      const asLight = forceLight || (config.ifan && index === 0);
      const property = claim(
        asLight
          ? lights + switches > 1
            ? `light_${index + 1}`
            : 'light'
          : switches > 1
            ? `state_${index + 1}`
            : 'state',
      );
      parts.push({ kind: 'relay', index, property, name: relayName(config, index, switches > 1), asLight });
    }
  });
  const shutters = shutterIndices(config.relays);
  shutters.forEach((_, i) => {
    const tilt = config.shutterTilt[i];
    const [min = 0, max = 0, duration = 0] = tilt ?? [];
    parts.push({
      kind: 'shutter',
      index: i,
      property: claim(shutters.length > 1 ? `cover_${i + 1}` : 'cover'),
      name: shutters.length > 1 ? `${config.deviceName} shutter ${i + 1}` : config.deviceName,
      inverted: ((config.shutterOptions[i] ?? 0) & 1) === 1,
      tilt: duration !== 0 && min !== max ? { min, max } : undefined,
    });
  });
  if (config.ifan) parts.push({ kind: 'fan', property: claim('fan'), name: `${config.deviceName} fan` });
  const usedSwitches = config.switchModes.filter((mode) => mode !== -1).length;
  config.switchModes.forEach((mode, index) => {
    if (mode === -1) return;
    const own = config.switchNames[index];
    const key = typeof own === 'string' && own !== '' ? own : `Switch${index + 1}`;
    parts.push({
      kind: 'switch',
      index,
      property: claim(usedSwitches > 1 || index > 0 ? `switch_${index + 1}` : 'switch'),
      name: typeof own === 'string' && own !== '' ? own : `Switch ${index + 1}`,
      key,
      mode,
    });
  });
  if (sensors) {
    for (const leaf of sensorLeaves(sensors, shutters.length)) {
      const unit = unitOf(leaf.quantity, sensors);
      parts.push({
        kind: 'sensor',
        path: leaf.path,
        quantity: leaf.quantity,
        property: claim(propertyOf(leaf.path)),
        name: leaf.path.join(' '),
        unit,
        numeric: typeof leaf.sample === 'number' || (leaf.sample === null && unit !== undefined),
      });
    }
  }
  parts.push(
    { kind: 'wifi', key: 'RSSI', property: claim('wifi_rssi'), name: 'Wi-Fi quality' },
    { kind: 'wifi', key: 'Signal', property: claim('wifi_signal'), name: 'Wi-Fi signal' },
  );
  const buttons = config.buttons.flatMap((present, i) => (present ? [i + 1] : []));
  return { config, parts, buttons };
}

/** The `action` values a device's buttons and switches report: `button_1_single`, `switch_2_toggle`. */
export function actionsOf(model: TasmotaModel): string[] {
  const values: string[] = [];
  for (const n of model.buttons)
    for (const action of ['single', 'double', 'triple', 'quad', 'penta', 'hold', 'clear'])
      values.push(`button_${n}_${action}`);
  for (const part of model.parts)
    if (part.kind === 'switch' && !FOLLOWING_MODES.has(part.mode))
      for (const action of ['toggle', 'hold', 'inc_dec', 'clear', 'double'])
        values.push(`switch_${part.index + 1}_${action}`);
  return values;
}

/** A light's parts (the composite's features) for its type. */
function lightFeatures(part: LightPart): Capability[] {
  const type = 'light';
  const leaf = (property: string, write = true) => ({
    property,
    name: humanized(property),
    type,
    read: true,
    write,
  });
  const features: Capability[] = [binary(leaf('state'))];
  if (part.lightType === LIGHT.none) return features;
  features.push(numeric(leaf('brightness'), { min: 0, max: 100, step: 1 }, '%'));
  if (part.lightType === LIGHT.coldWarm || part.lightType === LIGHT.rgbcw)
    features.push(
      numeric(leaf('color_temp'), { min: part.minMireds, max: part.maxMireds, step: 1 }, 'mired'),
    );
  if (part.lightType >= LIGHT.rgb) {
    features.push({
      id: 'color',
      property: 'color',
      name: 'Color',
      kind: 'composite',
      type,
      value_type: 'object',
      access: { readOnly: false, write: true, set: true, published: true },
      metadata: { color_modes: ['hs'], features: ['hue', 'saturation'] },
    });
    features.push(enumeration(leaf('effect'), EFFECTS));
  }
  if (part.lightType === LIGHT.rgbw)
    features.push(numeric(leaf('white'), { min: 0, max: 100, step: 1 }, '%'));
  if (part.transition) {
    const transition = numeric({ ...leaf('transition'), read: false }, { min: 0, max: 40, step: 0.5 }, 's');
    features.push(transition);
  }
  return features;
}

const humanized = (property: string) =>
  ({
    color_temp: 'Color temperature',
    state: 'State',
    brightness: 'Brightness',
    effect: 'Effect',
    white: 'White',
    transition: 'Transition',
  })[property] ?? property;

/** The capability of each part (one per part), and `action` when buttons or switches report actions. */
export function capabilitiesOf(model: TasmotaModel): Capability[] {
  const capabilities: Capability[] = [];
  for (const part of model.parts) {
    const withId = (capability: Capability, metadata: Record<string, unknown> = {}): Capability => ({
      ...capability,
      id: part.property,
      property: part.property,
      metadata: { ...capability.metadata, ...metadata },
    });
    switch (part.kind) {
      case 'relay':
        capabilities.push(
          part.asLight
            ? composite(part.property, part.name, 'light', [
                binary({ property: 'state', name: 'State', type: 'light', read: true, write: true }),
              ])
            : withId(
                binary({ property: part.property, name: part.name, type: 'switch', read: true, write: true }),
                {
                  relay: part.index + 1,
                },
              ),
        );
        break;
      case 'light':
        capabilities.push(
          withId(composite(part.property, part.name, 'light', lightFeatures(part)), {
            relay: part.index + 1,
          }),
        );
        break;
      case 'shutter': {
        const type = 'cover';
        const features = [
          enumeration({ property: 'state', name: 'State', type, read: true, write: false }, [
            'open',
            'opening',
            'closed',
            'closing',
            'stopped',
          ]),
          enumeration({ property: 'command', name: 'Command', type, read: false, write: true }, [
            'open',
            'close',
            'stop',
          ]),
          numeric(
            { property: 'position', name: 'Position', type, read: true, write: true },
            { min: 0, max: 100, step: 1 },
            '%',
          ),
        ];
        if (part.tilt)
          features.push(
            numeric(
              { property: 'tilt', name: 'Tilt', type, read: true, write: true },
              { min: 0, max: 100, step: 1 },
              '%',
            ),
          );
        capabilities.push(
          withId(composite(part.property, part.name, type, features), { shutter: part.index + 1 }),
        );
        break;
      }
      case 'fan': {
        const type = 'fan';
        capabilities.push(
          composite(part.property, part.name, type, [
            binary({ property: 'state', name: 'State', type, read: true, write: true }),
            numeric(
              { property: 'percentage', name: 'Speed', type, read: true, write: true },
              { min: 0, max: 100, step: Math.round(10_000 / FAN_SPEEDS) / 100 },
              '%',
            ),
          ]),
        );
        break;
      }
      case 'switch':
        capabilities.push(
          withId(
            binary({ property: part.property, name: part.name, type: 'binary', read: true, write: false }),
            {
              switch: part.index + 1,
              switch_mode: part.mode,
            },
          ),
        );
        break;
      case 'sensor': {
        const leaf = { property: part.property, name: part.name, type: 'sensor', read: true, write: false };
        const capability = part.numeric ? numeric(leaf, {}, part.unit) : textual(leaf);
        const deviceClass = DEVICE_CLASSES[part.quantity];
        capabilities.push(
          withId(
            { ...capability, type: part.numeric ? 'numeric' : 'text' },
            {
              path: part.path,
              ...(deviceClass ? { device_class: deviceClass } : {}),
            },
          ),
        );
        break;
      }
      case 'wifi':
        capabilities.push(
          withId(
            numeric(
              { property: part.property, name: part.name, type: 'numeric', read: true, write: false },
              part.key === 'RSSI' ? { min: 0, max: 100 } : {},
              part.key === 'RSSI' ? '%' : 'dBm',
            ),
            { category: 'diagnostic' },
          ),
        );
        break;
    }
  }
  const actions = actionsOf(model);
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

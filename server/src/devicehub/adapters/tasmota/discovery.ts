import { isObject, type JsonObject } from '../../../shared/json.js';

/**
 * Tasmota's native discovery (docs/devicehub.md#tasmota-mapping): the retained
 * `<prefix>/<MAC>/config` and `<prefix>/<MAC>/sensors` messages read into a device's
 * configuration, checked as Home Assistant's Tasmota integration checks them. Pure.
 */

/** Discovery messages larger than this are refused (real ones are 1–2 KB). */
export const MAX_DISCOVERY_BYTES = 64 * 1024;

/** Tasmota's index of each topic prefix in `tp`. */
export const PREFIX = { cmnd: 0, stat: 1, tele: 2 } as const;

/** `rl` entries: what each relay is. */
export const RELAY = { none: 0, relay: 1, light: 2, shutter: 3 } as const;

/** The SetOptions discovery carries (`so`) that Hearth reads, by number. */
export const OPTION = {
  notPowerLinked: '20',
  hassLight: '30',
  pwmMultiChannels: '68',
  reducedCtRange: '82',
  fadeFixedDuration: '117',
} as const;
const READ_OPTIONS = new Set<string>(Object.values(OPTION));
const NO_OPTIONS: ReadonlyMap<string, number> = new Map();

/** A device as its `config` message describes it. */
export interface TasmotaConfig {
  mac: string;
  /** `dn`: the device's name. */
  deviceName: string;
  /** `fn`: each relay's friendly name (null: none given). */
  friendlyNames: (string | null)[];
  /** `ft`: the full topic pattern, e.g. `%prefix%/%topic%/`. */
  fullTopic: string;
  hostname: string;
  ip: string | null;
  model: string | null;
  firmware: string | null;
  /** `t`: the device's topic. */
  topic: string;
  /** `tp`: cmnd, stat and tele. */
  prefixes: [string, string, string];
  online: string;
  offline: string;
  /** `state`: the texts of off, on (toggle, hold). */
  stateTexts: string[];
  relays: number[];
  /** `swc`: each switch's mode (-1: none). */
  switchModes: number[];
  /** `swn`: each switch's name (its key in messages instead of `Switch<n>`). */
  switchNames: (string | null)[];
  buttons: number[];
  /** `so`: the SetOptions Hearth reads (OPTION), by number. */
  options: ReadonlyMap<string, number>;
  /** `lt_st`: 0 none, 1 dimmer, 2 CT, 3 RGB, 4 RGBW, 5 RGBCW. */
  lightSubtype: number;
  /** `lk`: RGB and white channels are one light. */
  linked: boolean;
  /** `ty`: a Tuya MCU device. */
  tuya: boolean;
  /** `if`: an iFan. */
  ifan: boolean;
  /** `sho`: each shutter's options (bit 1: inverted). */
  shutterOptions: number[];
  /** `sht`: each shutter's tilt `[min, max, duration]`. */
  shutterTilt: number[][];
}

export type ConfigResult =
  | { kind: 'config'; config: TasmotaConfig }
  | { kind: 'remove' }
  | { kind: 'rejected'; reason: string };

export type SensorsResult =
  | { kind: 'sensors'; sensors: JsonObject }
  | { kind: 'remove' }
  | { kind: 'rejected'; reason: string };

/** The MAC and kind of a discovery topic, or undefined when it is not one. */
export function discoveryTopic(
  prefix: string,
  topic: string,
): { mac: string; kind: 'config' | 'sensors' } | undefined {
  if (!topic.startsWith(`${prefix}/`)) return undefined;
  const match = /^([A-Z0-9_-]+)\/(config|sensors)$/.exec(topic.slice(prefix.length + 1));
  if (!match) return undefined;
  return { mac: match[1] as string, kind: match[2] as 'config' | 'sensors' };
}

const textOf = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
const intOf = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isInteger(value)
    ? value
    : typeof value === 'string' && /^-?\d+$/.test(value.trim())
      ? Number(value)
      : undefined;
const bitOf = (value: unknown): boolean | undefined => {
  const n = intOf(value);
  return n === 0 || n === 1 ? n === 1 : typeof value === 'boolean' ? value : undefined;
};

class Refused extends Error {}
const refuse = (reason: string): never => {
  throw new Refused(reason);
};

function parseJson(payload: Buffer): unknown {
  if (payload.length > MAX_DISCOVERY_BYTES) refuse(`larger than ${MAX_DISCOVERY_BYTES} bytes`);
  try {
    return JSON.parse(payload.toString('utf8'));
  } catch {
    return refuse('not JSON');
  }
}

function list<T>(c: JsonObject, key: string, item: (v: unknown) => T | undefined, required = true): T[] {
  const value = c[key];
  if (value === undefined && !required) return [];
  // One value where a list is expected is a list of one (as the integration's ensure_list does).
  const values = Array.isArray(value) ? value : value === undefined ? refuse(`${key} is missing`) : [value];
  return values.map((v, i) => {
    const read = item(v);
    return read === undefined ? refuse(`${key}[${i}] is not valid`) : read;
  });
}

const required = <T>(c: JsonObject, key: string, read: (v: unknown) => T | undefined, what: string): T => {
  if (c[key] === undefined) return refuse(`${key} is missing`);
  const value = read(c[key]);
  return value === undefined ? refuse(`${key} must be ${what}`) : value;
};

const optionalText = (v: unknown) => (v === null ? null : textOf(v));

/**
 * Firmware pads its lists to 8 with nothing (`null`, `0`, `-1`) and repeats the same texts: kept
 * without the empty tail, and common values shared, so thousands of devices take little memory.
 */
function trimmed<T>(values: T[], empty: (value: T) => boolean): T[] {
  let end = values.length;
  while (end > 0 && empty(values[end - 1] as T)) end--;
  return end === values.length ? values : values.slice(0, end);
}
const COMMON: readonly string[][] = [
  ['OFF', 'ON', 'TOGGLE', 'HOLD'],
  ['cmnd', 'stat', 'tele'],
];
const COMMON_TEXTS = new Map(
  ['Online', 'Offline', '%prefix%/%topic%/', '%topic%/%prefix%/'].map((t) => [t, t]),
);
const shared = (values: string[]) =>
  COMMON.find((common) => common.length === values.length && common.every((v, i) => v === values[i])) ??
  values;
const common = (text: string) => COMMON_TEXTS.get(text) ?? text;

/** A `config` message: the device, its removal (empty), or why it is refused. */
export function parseConfig(mac: string, payload: Buffer): ConfigResult {
  if (payload.length === 0) return { kind: 'remove' };
  try {
    const c = parseJson(payload);
    if (!isObject(c)) return refuse('not a JSON object');
    if (c.ver !== undefined && intOf(c.ver) !== 1) refuse(`version ${String(c.ver)} is not supported`);
    const own = required(c, 'mac', textOf, 'text').replace(/:/g, '').toUpperCase();
    if (own !== mac) refuse(`mac ${own} does not match the topic's ${mac}`);
    const topic = required(c, 't', textOf, 'text');
    const fullTopic = required(c, 'ft', textOf, 'text');
    const prefixes = list(c, 'tp', textOf);
    if (prefixes.length < 3) refuse('tp must name cmnd, stat and tele');
    const so = c.so === undefined ? {} : isObject(c.so) ? c.so : refuse('so must be an object');
    const options = new Map<string, number>();
    for (const [key, value] of Object.entries(so)) {
      const n = intOf(value);
      // Only those Hearth reads: numeric keys would make a sparse array of up to 118 slots per device.
      if (n !== undefined && READ_OPTIONS.has(key)) options.set(key, n);
    }
    const stateTexts = c.state === undefined ? ['OFF', 'ON', 'TOGGLE', 'HOLD'] : list(c, 'state', textOf);
    if (stateTexts.length < 2) refuse('state must name off and on');
    const config: TasmotaConfig = {
      mac,
      deviceName: textOf(c.dn) ?? textOf(c.hn) ?? topic,
      friendlyNames: trimmed(list(c, 'fn', optionalText, false), (name) => name === null),
      fullTopic: common(fullTopic),
      hostname: textOf(c.hn) ?? topic,
      ip: textOf(c.ip) ?? null,
      model: textOf(c.md) ?? null,
      firmware: textOf(c.sw) ?? null,
      topic,
      prefixes: shared(prefixes.slice(0, 3)) as [string, string, string],
      online: common(textOf(c.onln) ?? 'Online'),
      offline: common(textOf(c.ofln) ?? 'Offline'),
      stateTexts: shared(stateTexts),
      relays: trimmed(list(c, 'rl', intOf, false), (relay) => relay === 0),
      switchModes: trimmed(list(c, 'swc', intOf, false), (mode) => mode === -1),
      switchNames: trimmed(list(c, 'swn', optionalText, false), (name) => name === null),
      buttons: trimmed(list(c, 'btn', intOf, false), (button) => button === 0),
      options: options.size === 0 ? NO_OPTIONS : options,
      lightSubtype: c.lt_st === undefined ? 0 : required(c, 'lt_st', intOf, 'a whole number'),
      linked: c.lk === undefined ? true : required(c, 'lk', bitOf, '0 or 1'),
      tuya: c.ty === undefined ? false : required(c, 'ty', bitOf, '0 or 1'),
      ifan: c.if === undefined ? false : required(c, 'if', bitOf, '0 or 1'),
      shutterOptions: trimmed(list(c, 'sho', intOf, false), (options) => options === 0),
      shutterTilt: trimmed(
        list(
          c,
          'sht',
          (v) =>
            Array.isArray(v) && v.every((n) => intOf(n) !== undefined)
              ? v.map((n) => intOf(n) as number)
              : undefined,
          false,
        ),
        (tilt) => tilt.every((n) => n === 0),
      ),
    };
    if (config.lightSubtype < 0 || config.lightSubtype > 5)
      refuse(`lt_st ${config.lightSubtype} is not a light type`);
    for (const which of ['cmnd', 'stat', 'tele'] as const) {
      const full = fullTopicOf(config, which);
      if (/[#+]/.test(full) || full.includes('//') || full.startsWith('/'))
        refuse(`the ${which} topic ${full} is not a topic Hearth can use`);
    }
    return { kind: 'config', config };
  } catch (error) {
    if (error instanceof Refused) return { kind: 'rejected', reason: error.message };
    throw error;
  }
}

/** A `sensors` message (`{"sn": {…}, "ver": 1}`): what the device's sensors report, or its removal. */
export function parseSensors(payload: Buffer): SensorsResult {
  if (payload.length === 0) return { kind: 'remove' };
  try {
    const c = parseJson(payload);
    if (!isObject(c)) return refuse('not a JSON object');
    if (c.ver !== undefined && intOf(c.ver) !== 1) refuse(`version ${String(c.ver)} is not supported`);
    if (!isObject(c.sn)) refuse('sn must be an object');
    return { kind: 'sensors', sensors: c.sn as JsonObject };
  } catch (error) {
    if (error instanceof Refused) return { kind: 'rejected', reason: error.message };
    throw error;
  }
}

/**
 * A full topic, ending with `/`: `ft` with `%prefix%` (cmnd, stat or tele as `tp` names them),
 * `%topic%`, `%hostname%` and `%id%` (the MAC's last six digits) filled in.
 */
export function fullTopicOf(config: TasmotaConfig, which: keyof typeof PREFIX): string {
  const full = config.fullTopic
    .replaceAll('%hostname%', config.hostname)
    .replaceAll('%id%', config.mac.slice(-6))
    .replaceAll('%prefix%', config.prefixes[PREFIX[which]])
    .replaceAll('%topic%', config.topic);
  return full.endsWith('/') ? full : `${full}/`;
}

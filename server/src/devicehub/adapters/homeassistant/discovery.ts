import { isObject, type JsonObject } from '../../../shared/json.js';
import { ABBREVIATIONS, DEVICE_ABBREVIATIONS, expandKeys, ORIGIN_ABBREVIATIONS } from './abbreviations.js';

/** Discovery configs larger than this are refused (real ones are a few KB; Shelly's biggest 6 KB). */
export const MAX_CONFIG_PAYLOAD = 64 * 1024;
/** Most entities one device-based config may carry. */
export const MAX_COMPONENTS = 256;

/** The components Hearth maps (docs/devicehub.md#home-assistant-discovery-mapping). */
export const COMPONENTS = [
  'alarm_control_panel',
  'binary_sensor',
  'button',
  'climate',
  'cover',
  'device_automation',
  'device_tracker',
  'event',
  'fan',
  'humidifier',
  'light',
  'lock',
  'number',
  'scene',
  'select',
  'sensor',
  'siren',
  'switch',
  'text',
  'update',
  'vacuum',
  'valve',
  'water_heater',
] as const;
export type Component = (typeof COMPONENTS)[number];
const KNOWN = new Set<string>(COMPONENTS);
/** Home Assistant components Hearth has nothing to show for (skipped quietly, not refused). */
const UNSUPPORTED = new Set(['camera', 'image', 'lawn_mower', 'notify', 'tag']);

/** Where a config came from: `<prefix>/<component>/[<node_id>/]<object_id>/config`, or `<prefix>/device/<object_id>/config`. */
export type DiscoveryTopic =
  | { kind: 'entity'; component: string; nodeId: string | undefined; objectId: string }
  | { kind: 'device'; objectId: string };

/** The discovery topic under `prefix`, or undefined for anything else (`<prefix>/status`, states). */
export function parseDiscoveryTopic(prefix: string, topic: string): DiscoveryTopic | undefined {
  if (!topic.startsWith(`${prefix}/`) || !topic.endsWith('/config')) return undefined;
  const levels = topic.slice(prefix.length + 1, -'/config'.length).split('/');
  if (levels.some((level) => level === '' || level === '+' || level === '#')) return undefined;
  if (levels.length === 2 && levels[0] === 'device') return { kind: 'device', objectId: levels[1] as string };
  if (levels.length === 2)
    return {
      kind: 'entity',
      component: levels[0] as string,
      nodeId: undefined,
      objectId: levels[1] as string,
    };
  if (levels.length === 3)
    return {
      kind: 'entity',
      component: levels[0] as string,
      nodeId: levels[1],
      objectId: levels[2] as string,
    };
  return undefined;
}

/** A device as a config's `dev` describes it (keys spelled out). */
export interface DeviceInfo {
  identifiers: string[];
  connections: [string, string][];
  name: string | undefined;
  manufacturer: string | undefined;
  model: string | undefined;
  sw_version: string | undefined;
  suggested_area: string | undefined;
  via_device: string | undefined;
}

/** One entity of a config, its keys spelled out and its `~` substituted. */
export interface EntityConfig {
  /** Unique per discovery topic (and `cmps` key): what an empty config removes. */
  discoveryId: string;
  component: Component;
  /** The capability's id and property: the topic's object id, or the `cmps` key. */
  objectId: string;
  /** The config topic it came from. */
  topic: string;
  /** Its options, keys spelled out (`device` and `origin` are read into the fields below). */
  config: JsonObject;
  device: DeviceInfo | undefined;
  origin: { name: string | undefined; sw_version: string | undefined } | undefined;
  uniqueId: string | undefined;
}

export type ParsedConfig =
  /** An empty (retained) config: the entities of this topic go. */
  | { kind: 'remove' }
  /** `{"migrate_discovery": true}`: not a config; the entities of this topic go quietly. */
  | { kind: 'marker' }
  | {
      kind: 'entities';
      entities: EntityConfig[];
      /** Discovery ids a device config removes (a component reduced to `{"p": …}`). */
      removed: string[];
      /** Components of a device config refused or skipped, each with why (the others apply). */
      problems: { discoveryId: string; reason: string; quiet?: boolean }[];
    }
  /** Not a config Hearth can use (the reason goes into one warning naming the topic). */
  | { kind: 'rejected'; reason: string; quiet?: boolean };

const TOPIC_KEY = /_topic$/;

/** Keys whose numbers real producers send as text (`"max_temp": "35"`). */
const NUMBER_KEYS = new Set([
  'brightness_scale',
  'expire_after',
  'max',
  'max_humidity',
  'max_kelvin',
  'max_mireds',
  'max_temp',
  'min',
  'min_humidity',
  'min_kelvin',
  'min_mireds',
  'min_temp',
  'off_delay',
  'position_closed',
  'position_open',
  'precision',
  'qos',
  'speed_range_max',
  'speed_range_min',
  'step',
  'temp_step',
  'target_humidity_step',
  'tilt_closed_value',
  'tilt_max',
  'tilt_min',
  'tilt_opened_value',
  'white_scale',
  'suggested_display_precision',
]);
/** Keys whose booleans real producers send as text (`"en": "true"`). */
const BOOLEAN_KEYS = new Set([
  'brightness',
  'color_temp_kelvin',
  'enabled_by_default',
  'force_update',
  'optimistic',
  'reports_position',
  'retain',
  'support_duration',
  'support_volume_set',
  'tilt_invert_state',
  'tilt_optimistic',
  'code_arm_required',
  'code_disarm_required',
  'code_trigger_required',
  'color_temp',
  'effect',
  'hs',
  'rgb',
  'xy',
  'white_value',
]);

const text = (value: unknown): string | undefined =>
  typeof value === 'string' && value.trim() !== ''
    ? value
    : typeof value === 'number'
      ? String(value)
      : undefined;

/** `~` at the start or the end of a `*_topic` value (and of an availability entry's `topic`) is the base topic. */
function substitute(value: unknown, base: string | undefined): unknown {
  if (base === undefined || typeof value !== 'string') return value;
  if (value.startsWith('~')) return base + value.slice(1);
  if (value.endsWith('~')) return value.slice(0, -1) + base;
  return value;
}

/** Spells out keys, substitutes `~`, and turns numbers and booleans sent as text into their types. */
function normalise(raw: JsonObject, base: string | undefined): JsonObject {
  const config = expandKeys(raw, ABBREVIATIONS) as JsonObject;
  for (const [key, value] of Object.entries(config)) {
    if (TOPIC_KEY.test(key)) config[key] = substitute(value, base);
    else if (
      NUMBER_KEYS.has(key) &&
      typeof value === 'string' &&
      value.trim() !== '' &&
      Number.isFinite(Number(value))
    )
      config[key] = Number(value);
    else if (BOOLEAN_KEYS.has(key) && (value === 'true' || value === 'false')) config[key] = value === 'true';
  }
  const availability = config.availability;
  // A single availability object instead of a list (tolerated: several producers send one).
  const entries = isObject(availability) ? [availability] : availability;
  if (Array.isArray(entries)) {
    config.availability = entries.map((entry) => {
      if (!isObject(entry)) return entry;
      const expanded = expandKeys(entry, ABBREVIATIONS) as JsonObject;
      expanded.topic = substitute(expanded.topic, base);
      return expanded;
    });
  }
  return config;
}

function deviceInfo(raw: unknown): DeviceInfo | undefined {
  if (!isObject(raw)) return undefined;
  const dev = expandKeys(raw, DEVICE_ABBREVIATIONS);
  const ids = dev.identifiers;
  const identifiers = (Array.isArray(ids) ? ids : ids === undefined ? [] : [ids])
    .map(text)
    .filter((id): id is string => id !== undefined);
  const connections = (Array.isArray(dev.connections) ? dev.connections : [])
    .filter((pair): pair is unknown[] => Array.isArray(pair) && pair.length >= 2)
    .map((pair) => [String(pair[0]), String(pair[1])] as [string, string]);
  return {
    identifiers,
    connections,
    name: text(dev.name),
    manufacturer: text(dev.manufacturer),
    model: text(dev.model) ?? text(dev.model_id),
    sw_version: text(dev.sw_version),
    suggested_area: text(dev.suggested_area),
    via_device: text(dev.via_device),
  };
}

const isTopic = (value: unknown) => typeof value === 'string' && value !== '' && value.length <= 1024;
const hasWildcard = (topic: string) => /[#+]/.test(topic);

/** What every component requires (Home Assistant refuses configs without it). */
const REQUIRED: Partial<Record<Component, string[]>> = {
  alarm_control_panel: ['state_topic', 'command_topic'],
  binary_sensor: ['state_topic'],
  button: ['command_topic'],
  device_automation: ['topic', 'type', 'subtype'],
  event: ['state_topic', 'event_types'],
  fan: ['command_topic'],
  humidifier: ['command_topic', 'target_humidity_command_topic'],
  lock: ['command_topic'],
  number: ['command_topic'],
  select: ['command_topic', 'options'],
  sensor: ['state_topic'],
  siren: ['command_topic'],
  switch: ['command_topic'],
  text: ['command_topic'],
};

/** Why Home Assistant would refuse this entity's config, or undefined when it takes it. */
export function invalidReason(component: Component, config: JsonObject): string | undefined {
  for (const key of REQUIRED[component] ?? []) {
    if (config[key] === undefined || config[key] === null) return `required key ${key} is missing`;
  }
  if (component === 'light') {
    const schema = config.schema ?? 'default';
    if (!['default', 'basic', 'json', 'template'].includes(String(schema)))
      return `unknown light schema ${String(schema)}`;
    if (!isTopic(config.command_topic)) return 'required key command_topic is missing';
    if (
      schema === 'template' &&
      (typeof config.command_on_template !== 'string' || typeof config.command_off_template !== 'string')
    )
      return 'a template light needs command_on_template and command_off_template';
  }
  if (
    component === 'device_tracker' &&
    config.state_topic === undefined &&
    config.json_attributes_topic === undefined
  )
    return 'a device tracker needs state_topic or json_attributes_topic';
  if (
    component === 'device_automation' &&
    config.automation_type !== undefined &&
    config.automation_type !== 'trigger'
  )
    return `automation_type must be trigger, not ${String(config.automation_type)}`;
  for (const [key, value] of Object.entries(config)) {
    if (!TOPIC_KEY.test(key) || value === undefined || value === null) continue;
    if (!isTopic(value)) return `${key} must be a topic`;
    if (key.endsWith('command_topic') && hasWildcard(value as string))
      return `${key} must not contain a wildcard`;
  }
  if (
    (component === 'device_automation' || component === 'device_tracker') &&
    config.topic !== undefined &&
    !isTopic(config.topic)
  )
    return 'topic must be a topic';
  const availability = config.availability;
  if (availability !== undefined && availability !== null) {
    if (!Array.isArray(availability)) return 'availability must be a list of {topic, …}';
    for (const entry of availability) {
      if (!isObject(entry)) return 'availability entries must be objects';
      if (!isTopic(entry.topic)) return 'each availability entry needs a topic';
    }
    if (config.availability_topic !== undefined) return 'availability and availability_topic are exclusive';
  }
  if (
    config.availability_mode !== undefined &&
    !['all', 'any', 'latest'].includes(String(config.availability_mode))
  )
    return 'availability_mode must be all, any or latest';
  if (config.qos !== undefined && ![0, 1, 2].includes(config.qos as number)) return 'qos must be 0, 1 or 2';
  for (const list of ['options', 'event_types']) {
    const value = config[list];
    if (
      value !== undefined &&
      (!Array.isArray(value) || value.length === 0 || value.some((v) => typeof v !== 'string'))
    )
      return `${list} must be a list of text`;
  }
  for (const list of [
    'modes',
    'preset_modes',
    'fan_modes',
    'swing_modes',
    'effect_list',
    'fan_speed_list',
    'hold_modes',
  ]) {
    const value = config[list];
    if (
      value !== undefined &&
      (!Array.isArray(value) || value.some((v) => typeof v !== 'string' && typeof v !== 'number'))
    )
      return `${list} must be a list`;
  }
  for (const key of NUMBER_KEYS) {
    const value = config[key];
    if (value !== undefined && value !== null && (typeof value !== 'number' || !Number.isFinite(value)))
      return `${key} must be a number`;
  }
  if (typeof config.min === 'number' && typeof config.max === 'number' && config.min > config.max)
    return 'min must not be above max';
  return undefined;
}

/**
 * A retained config message as the entities it announces (docs/devicehub.md#home-assistant-discovery-mapping):
 * entity configs and device-based configs with `cmps`, keys spelled out, `~` substituted,
 * Home Assistant's requirements checked (with what real producers send tolerated).
 */
export function parseConfig(prefix: string, topic: string, payload: Buffer): ParsedConfig {
  const where = parseDiscoveryTopic(prefix, topic);
  if (!where) return { kind: 'rejected', reason: 'not a discovery topic' };
  if (payload.length === 0) return { kind: 'remove' };
  if (payload.length > MAX_CONFIG_PAYLOAD)
    return { kind: 'rejected', reason: `config larger than ${MAX_CONFIG_PAYLOAD} bytes` };
  let raw: unknown;
  try {
    raw = JSON.parse(payload.toString('utf8'));
  } catch {
    return { kind: 'rejected', reason: 'config is not JSON' };
  }
  if (!isObject(raw)) return { kind: 'rejected', reason: 'config is not a JSON object' };
  const expanded = expandKeys(raw, ABBREVIATIONS);
  if (expanded.migrate_discovery === true && Object.keys(expanded).length === 1) return { kind: 'marker' };
  const base = typeof raw['~'] === 'string' ? (raw['~'] as string) : undefined;

  if (where.kind === 'entity') {
    if (UNSUPPORTED.has(where.component))
      return { kind: 'rejected', reason: `component ${where.component} is not supported`, quiet: true };
    if (!KNOWN.has(where.component))
      return { kind: 'rejected', reason: `unknown component ${where.component}` };
    const config = normalise(raw, base);
    const reason = invalidReason(where.component as Component, config);
    if (reason) return { kind: 'rejected', reason };
    const discoveryId = [where.component, where.nodeId, where.objectId].filter(Boolean).join('/');
    return {
      kind: 'entities',
      entities: [entity(where.component as Component, where.objectId, discoveryId, topic, config)],
      removed: [],
      problems: [],
    };
  }

  // Device-based discovery: shared options at the root, one entity per `cmps` entry.
  const components = expanded.components;
  if (!isObject(components)) return { kind: 'rejected', reason: 'a device config needs components (cmps)' };
  if (!isObject(expanded.device)) return { kind: 'rejected', reason: 'a device config needs a device (dev)' };
  const entries = Object.entries(components);
  if (entries.length > MAX_COMPONENTS)
    return { kind: 'rejected', reason: `more than ${MAX_COMPONENTS} components` };
  const shared: JsonObject = { ...raw };
  delete shared.cmps;
  delete shared.components;
  const entities: EntityConfig[] = [];
  const removed: string[] = [];
  const problems: { discoveryId: string; reason: string; quiet?: boolean }[] = [];
  for (const [key, value] of entries) {
    const discoveryId = `device/${where.objectId}/${key}`;
    if (!isObject(value)) {
      problems.push({ discoveryId, reason: `component ${key} is not an object` });
      continue;
    }
    const own = expandKeys(value, ABBREVIATIONS);
    const component = text(own.platform);
    if (!component) {
      problems.push({ discoveryId, reason: `component ${key} has no platform (p)` });
      continue;
    }
    // A component reduced to its platform is removed.
    if (Object.keys(own).every((k) => k === 'platform')) {
      removed.push(discoveryId);
      continue;
    }
    if (UNSUPPORTED.has(component)) {
      problems.push({ discoveryId, reason: `component ${component} is not supported`, quiet: true });
      continue;
    }
    if (!KNOWN.has(component)) {
      problems.push({ discoveryId, reason: `unknown component ${component}` });
      continue;
    }
    const config = normalise({ ...shared, ...value }, base);
    delete config.platform;
    const reason = invalidReason(component as Component, config);
    if (reason) problems.push({ discoveryId, reason: `${key}: ${reason}` });
    else entities.push(entity(component as Component, key, discoveryId, topic, config));
  }
  return { kind: 'entities', entities, removed, problems };
}

function entity(
  component: Component,
  objectId: string,
  discoveryId: string,
  topic: string,
  config: JsonObject,
): EntityConfig {
  // The device and the origin are kept as read below, not also as sent (in each of a device's
  // entities, for as long as the entity lives).
  const { device, origin: sentOrigin, ...options } = config;
  const origin = isObject(sentOrigin) ? expandKeys(sentOrigin, ORIGIN_ABBREVIATIONS) : undefined;
  return {
    discoveryId,
    component,
    objectId,
    topic,
    config: options,
    device: deviceInfo(device),
    origin: origin ? { name: text(origin.name), sw_version: text(origin.sw_version) } : undefined,
    uniqueId: text(config.unique_id),
  };
}

import { IGNORED_DEVICE_ID_PREFIX } from '@hearth/contracts';
import { readBinary } from './binary.js';
import type { CapabilityReading, DeviceStats, DeviceView, InputReading, Json } from './device.types.js';
import { parseTime } from './format.js';

/** docs/strings.md#constants-and-limits: ids with this prefix are discarded and purged. */
export const IGNORED_ID_PREFIX = IGNORED_DEVICE_ID_PREFIX;

/** What the store keeps per device: the merged raw fields plus what the page learnt itself. */
export interface DeviceRecord {
  key: string;
  raw: Json;
  hasMetadata: boolean;
  metadataUpdatedAt: number | null;
  stateUpdatedAt: number | null;
  /**
   * True when only the state (and the online flag a state message sets) changed since the device
   * was last derived: withState then reuses the derived metadata (capabilities keep their identity).
   */
  stateOnly?: boolean;
}

const text = (value: unknown): string | null => {
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return String(value);
  return null;
};

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** docs/devicehub.md#device identifier: `id`, `device_id` or `deviceId`. */
export const rawId = (raw: Json): string | null => text(raw.id) ?? text(raw.device_id) ?? text(raw.deviceId);

export const rawExternalId = (raw: Json): string | null =>
  text(raw.external_id) ?? text(raw.externalId) ?? text(raw.externalID);

/** The store key: the id, else the external id. */
export function rawKey(raw: Json): string | null {
  const id = rawId(raw);
  if (id) return id;
  const external = rawExternalId(raw);
  return external ? `external:${external}` : null;
}

export const isIgnoredId = (id: string | null) => id?.startsWith(IGNORED_ID_PREFIX) ?? false;

/** docs/devicehub.md#device state: an object, or a JSON string of one. */
export function parseState(value: unknown): Json {
  if (isObject(value)) return value;
  if (typeof value === 'string') {
    try {
      const parsed: unknown = JSON.parse(value);
      return isObject(parsed) ? parsed : {};
    } catch {
      return {};
    }
  }
  return {};
}

const asArray = <T>(value: unknown): T[] => (Array.isArray(value) ? (value.filter(isObject) as T[]) : []);

/** Capabilities of the device and of `state.capabilities`, duplicates removed by id, property or name. */
export function mergeCapabilities(
  own: CapabilityReading[],
  fromState: CapabilityReading[],
): CapabilityReading[] {
  const seen = new Set<string>();
  const merged: CapabilityReading[] = [];
  for (const capability of [...own, ...fromState]) {
    const identity = capability.id ?? capability.property ?? capability.name;
    const key = identity === undefined ? null : String(identity);
    if (key !== null && seen.has(key)) continue;
    if (key !== null) seen.add(key);
    merged.push(capability);
  }
  return merged;
}

const valueType = (capability: CapabilityReading) =>
  (capability.value_type ?? capability.valueType)?.toLowerCase();

/** docs/devicehub.md#device-as-the-page-holds-it hasToggle. */
export const hasToggle = (capabilities: CapabilityReading[]) =>
  capabilities.some(
    (capability) =>
      ['state', 'on'].includes(String(capability.id)) ||
      ['state', 'on'].includes(String(capability.property)) ||
      valueType(capability) === 'boolean' ||
      capability.kind === 'binary',
  );

/**
 * docs/devicehub.md#device-as-the-page-holds-it toggleState: from `state.state` or `state.on`;
 * else (a source whose lights and switches are composites or entities of their own: Home
 * Assistant, Tasmota, Shelly) the `state` part of the first writable composite that has one, or
 * the first writable binary of a Home Assistant switch entity.
 */
export function toggleState(state: Json, capabilities: CapabilityReading[] = []): boolean | null {
  const own = readBinary(state.state) ?? readBinary(state.on);
  if (own !== null) return own;
  for (const capability of capabilities) {
    if (capability.access?.readOnly !== false) continue;
    const property = capability.property ?? capability.id;
    if (!property) continue;
    const value = state[property];
    if (capability.kind === 'composite' && capability.features?.some((f) => f.property === 'state'))
      if (value && typeof value === 'object') return readBinary((value as Json).state);
    if (capability.kind === 'binary' && capability.type === 'switch' && capability.metadata?.entity)
      return readBinary(value);
  }
  return null;
}

export const isNumericCapability = (capability: CapabilityReading) =>
  capability.kind === 'numeric' || valueType(capability) === 'number';

function describe(value: unknown): string | null {
  if (typeof value === 'string') return value;
  if (isObject(value) && typeof value.text === 'string') return value.text;
  return null;
}

/** docs/devicehub.md#device-as-the-page-holds-it displayName: trimmed name, else "manufacturer model", else external id, else key. */
export function displayName(
  fields: Pick<DeviceView, 'name' | 'manufacturer' | 'model' | 'externalId'>,
  key: string,
): string {
  const name = fields.name?.trim();
  if (name) return name;
  const makeAndModel = [fields.manufacturer, fields.model]
    .map((part) => part?.trim())
    .filter(Boolean)
    .join(' ');
  if (makeAndModel) return makeAndModel;
  return fields.externalId || key;
}

/**
 * toDevice for a record whose state changed since `previous` was derived from it and nothing else
 * (a state message, 1000 a second at scale): only the state's parts are derived again, the
 * metadata's (capabilities, names, times) are kept as they were — the same objects, so the
 * tile's parts that only read those need not render again.
 */
export function withState(previous: DeviceView, record: DeviceRecord): DeviceView {
  const { raw } = record;
  const state = parseState(raw.state);
  // Capabilities a state carries itself are merged in by toDevice.
  if (Array.isArray(state.capabilities) || Array.isArray(previous.state.capabilities))
    return toDevice(record);
  return {
    ...previous,
    online: raw.online === true,
    state,
    stateUpdatedAt: record.stateUpdatedAt,
    stateHasValues: Object.keys(state).length > 0,
    toggleState: toggleState(state, previous.capabilities),
  };
}

/** docs/devicehub.md#device-as-the-page-holds-it: the device as the page displays it. */
export function toDevice(record: DeviceRecord): DeviceView {
  const { raw } = record;
  const state = parseState(raw.state);
  const stateCapabilities = Array.isArray(state.capabilities)
    ? asArray<CapabilityReading>(state.capabilities)
    : [];
  const capabilities = mergeCapabilities(asArray<CapabilityReading>(raw.capabilities), stateCapabilities);
  const fields = {
    name: text(raw.name),
    manufacturer: text(raw.manufacturer),
    model: text(raw.model),
    externalId: rawExternalId(raw),
  };
  const stateHasValues = Object.keys(state).length > 0;
  return {
    key: record.key,
    mapKey: record.key,
    id: rawId(raw),
    ...fields,
    displayName: displayName(fields, record.key),
    protocol: text(raw.protocol),
    type: text(raw.type),
    firmware: text(raw.firmware) ?? text(raw.software_build_id),
    description: describe(raw.description),
    capabilities,
    inputs: asArray<InputReading>(raw.inputs),
    online: raw.online === true,
    lastSeen: parseTime(raw.last_seen),
    createdAt: parseTime(raw.created_at),
    updatedAt: parseTime(raw.updated_at),
    metadataUpdatedAt: record.metadataUpdatedAt,
    state,
    stateUpdatedAt: record.stateUpdatedAt,
    stateHasValues,
    hasToggle: hasToggle(capabilities),
    toggleState: toggleState(state, capabilities),
    hasMetadata: record.hasMetadata,
    roomId: text(raw.room_id),
    suggestedRoom: text(raw.suggested_room),
    access: raw.access === 'view' || raw.access === 'control' ? raw.access : null,
  };
}

/** docs/access.md: whether the viewer may send it commands (a device the server marks `view` only is not). */
export const canControl = (device: Pick<DeviceView, 'access'>) => device.access !== 'view';

/** docs/screens.md#device-list-and-stream listing rule. */
export const isListed = (device: DeviceView) =>
  device.hasMetadata ||
  Boolean(device.name || device.manufacturer || device.model || device.description || device.protocol) ||
  device.capabilities.length > 0 ||
  device.inputs.length > 0 ||
  device.stateHasValues;

// One collator for every comparison: sorting 2000 names with localeCompare would build one per call.
const collator = new Intl.Collator(undefined, { numeric: true });

/** Case-insensitive by display name; the key breaks ties so the order is stable. */
export function compareDevices(a: DeviceView, b: DeviceView): number {
  const byName = collator.compare(a.displayName.toLowerCase(), b.displayName.toLowerCase());
  return byName !== 0 ? byName : a.key < b.key ? -1 : a.key > b.key ? 1 : 0;
}

/** docs/devicehub.md#device-stats. */
export function deviceStats(devices: Iterable<DeviceView>): DeviceStats {
  const stats = { total: 0, online: 0, withState: 0, sensors: 0 };
  for (const device of devices) {
    stats.total++;
    if (device.online) stats.online++;
    if (device.stateHasValues) stats.withState++;
    if (device.capabilities.some(isNumericCapability)) stats.sensors++;
  }
  return stats;
}

/** The freshest moment the device was heard from: the hub's last_seen or our last state message. */
export const lastHeard = (device: DeviceView): number | null => {
  const times = [device.lastSeen, device.stateUpdatedAt].filter((time): time is number => time !== null);
  return times.length ? Math.max(...times) : null;
};

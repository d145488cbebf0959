/** Topics and payloads of the device hub (docs/devicehub.md (device, capability, input), docs/api.md#devices, docs/devicehub.md#stream), shared by server and web app. */

/** docs/devicehub.md#capability: the access of a capability. Writable per docs/strings.md#validation-rules ("Controls"). */
export interface CapabilityAccess {
  readOnly: boolean;
  write: boolean;
  set: boolean;
  /** Present (true) on binary capabilities that accept a toggle value. */
  toggle?: boolean;
  /** The device reports this value in its state. */
  published?: boolean;
  /** The value can be requested from the device. */
  gettable?: boolean;
}

export type CapabilityKind = 'binary' | 'numeric' | 'enum' | 'text' | 'composite' | 'list';
export type CapabilityValueType = 'boolean' | 'number' | 'enum' | 'string' | 'object' | 'array';

export interface NumericRange {
  min?: number;
  max?: number;
  step?: number;
}

/** docs/devicehub.md#capability: one thing a device reports or accepts. */
export interface Capability {
  /** Unique within the device: the state property (with its endpoint suffix), or e.g. `color_xy`. */
  id: string;
  /** The key in the device's state object (e.g. `state_l1`, `color`). */
  property: string;
  name: string;
  kind: CapabilityKind;
  /** The group it belongs to: `light`, `switch`, `lock`, `cover`, `climate`, `fan`, or the kind. */
  type: string;
  value_type: CapabilityValueType;
  unit?: string;
  enum?: string[];
  range?: NumericRange;
  step?: number;
  access: CapabilityAccess;
  metadata?: Record<string, unknown>;
  /** `composite`: what its object holds, each keyed by its own `property`. */
  features?: Capability[];
  /** `list`: what each item is. */
  item?: Capability;
  /** `list`: how many items it takes. */
  length?: LengthRange;
  /**
   * Why the capability's last value could not be read (e.g. a Home Assistant template that failed):
   * shown to admins on the tile's details; absent while it reads fine.
   */
  error?: string;
}

export interface LengthRange {
  min?: number;
  max?: number;
}

/**
 * the controls of docs/devicehub.md#input, and three more for what a device takes beyond single values: `text`,
 * `list` (an item editor) and `composite` (fields sent together as one object).
 */
export type InputType = 'toggle' | 'slider' | 'number' | 'select' | 'color' | 'text' | 'list' | 'composite';

/** docs/devicehub.md#input: a control offered for a writable capability. */
export interface Input {
  id: string;
  type: InputType;
  property: string;
  capability_id: string;
  label: string;
  range?: NumericRange;
  options?: { value: string; label: string }[];
  metadata?: { mode?: string; access?: CapabilityAccess; [key: string]: unknown };
  access: CapabilityAccess;
  readOnly: boolean;
  /** `composite`: its settable fields, each keyed by its `property` in the object sent. */
  features?: Input[];
  /** `list`: the control of one item. */
  item?: Input;
  /** `list`: how many items it takes. */
  length?: LengthRange;
}

export type DeviceState = Record<string, unknown>;

/** docs/devicehub.md#device: a device as GET /api/devicehub/devices and `events/device.upsert` send it. */
export interface Device {
  /** Stable id: survives restarts and renames. */
  id: string;
  /** The ecosystem's own address (Zigbee: the IEEE address). */
  external_id: string;
  name: string;
  manufacturer: string | null;
  model: string | null;
  type: string;
  protocol: string;
  description: string | null;
  firmware: string | null;
  online: boolean;
  last_seen: string | null;
  created_at: string;
  updated_at: string;
  state: DeviceState;
  capabilities: Capability[];
  inputs: Input[];
  /** docs/rooms.md#assignment: the room the device is in, null when unassigned. */
  room_id: string | null;
  /**
   * docs/rooms.md#suggestions: the room its `room/device` name suggests (a room name, which may not
   * exist yet), while the device is unassigned and nobody has ever assigned it; else null.
   */
  suggested_room: string | null;
  /**
   * docs/access.md: what the caller may do with it (`view` or `control`), on every device the API
   * or the stream hands a signed-in caller; devices they may not view are not listed.
   */
  access?: 'view' | 'control';
}

/** A device that left its ecosystem's list: kept with its id and name until an admin purges it. */
export interface RemovedDevice extends Device {
  removed_at: string;
}

/** `events/hub.status` (retained) and GET /api/devicehub/status: is the device bus up, since when. */
export interface DevicehubStatus {
  bus: 'online' | 'offline';
  /** ISO-8601 time of the last change. */
  since: string;
  /** GET /api/devicehub/status for admins only: the bus probe's latest round trip in ms (null before the first). */
  bus_round_trip_ms?: number | null;
  /** GET /api/devicehub/status for admins only: the broker holds small messages back (docs/api.md#health). */
  bus_delay_warning?: boolean;
  /**
   * Zigbee2MQTT's own `bridge/state` (null: it has not said). While `offline`, commands and
   * renames answer 503 "Device bridge offline".
   */
  bridge?: 'online' | 'offline' | null;
}

/** `events/device.removed`. */
export interface DeviceRemovedEvent {
  id: string;
  external_id: string;
}

/** Browsers publish this on `commands/device.set` (docs/devicehub.md#stream). */
export interface DeviceSetCommand {
  device_id: string;
  state: Record<string, unknown>;
}

/** Browsers publish this on `commands/device.rename` (docs/devicehub.md#stream). */
export interface DeviceRenameCommand {
  device_id: string;
  name: string;
}

/**
 * Body of POST /api/devicehub/devices/{id}/commands (docs/api.md#devices). A composite's value is an object
 * of its fields (`{mode: "burglar", level: "high"}`), a list's an array of items.
 */
export interface DeviceCommandRequest {
  input?: { id: string; value: unknown };
  state?: { on?: boolean; [property: string]: unknown };
}

/** One device's command in POST /api/devicehub/commands (docs/devicehub.md#commands-to-several-devices). */
export interface DeviceBulkCommand extends DeviceCommandRequest {
  device_id: string;
}

/** Body of POST /api/devicehub/commands: several devices at once (a room's All off, a scene). */
export interface DeviceBulkCommandRequest {
  commands: DeviceBulkCommand[];
}

/**
 * What became of one device's command: `confirmed` (its state said so within the wait),
 * `not_responding` (sent, its state did not confirm it in time), `offline` (not sent: the device
 * is offline), `refused` (not sent: out of reach, view only, a value it can't take) or `failed`
 * (not sent: the bus or bridge is away).
 */
export type DeviceCommandOutcome = 'confirmed' | 'not_responding' | 'offline' | 'refused' | 'failed';

export interface DeviceBulkCommandResult {
  device_id: string;
  /** The device's name; absent for a device the caller may not view. */
  name?: string;
  outcome: DeviceCommandOutcome;
  /** Why it was refused or failed. */
  error?: string;
}

/** Answer (`data`) of POST /api/devicehub/commands, one result per command in its order. */
export interface DeviceBulkCommandAnswer {
  results: DeviceBulkCommandResult[];
  confirmed: number;
  total: number;
}

/** How long POST /api/devicehub/commands waits for the devices' states to confirm their commands. */
export const COMMAND_CONFIRM_MS = 5000;
/** Most commands one POST /api/devicehub/commands carries. */
export const MAX_BULK_COMMANDS = 500;

/** Body of PATCH /api/devicehub/devices/{id}. */
export interface DeviceRenameRequest {
  name: string;
}

/** Answer of PATCH and POST on a device. */
export interface DeviceCallResult<T = unknown> {
  success: boolean;
  data: T | null;
  error: string | null;
}

/** Topics relative to P = `{prefix}/devicehub` (what the edge broker and the web app use). */
export const devicehubTopics = {
  devicesWildcard: 'devices/#',
  device: (id: string) => `devices/${id}`,
  upsert: 'events/device.upsert',
  removed: 'events/device.removed',
  hubStatus: 'events/hub.status',
  eventsWildcard: 'events/#',
  set: 'commands/device.set',
  rename: 'commands/device.rename',
} as const;

/** P itself: `{prefix}/devicehub`. */
export const devicehubRoot = (prefix: string) => `${prefix}/devicehub`;

/** A relative topic under P made absolute. */
export const devicehubTopic = (prefix: string, relative: string) => `${devicehubRoot(prefix)}/${relative}`;

/** The longest text value a command may carry (a `text` input, or text inside a composite or list). */
export const MAX_TEXT_LENGTH = 1024;

/** docs/strings.md#constants-and-limits: ids with this prefix are discarded by browsers; the hub never publishes them. */
export const IGNORED_DEVICE_ID_PREFIX = 'by-external/';

import { KNOWN_BINARY_PROPERTIES, readBinary } from './binary.js';
import { reportedColour } from './colour.js';
import { groupCovers } from './cover.js';
import type {
  Access,
  CapabilityReading,
  DeviceView,
  InputOptionReading,
  InputReading,
  Json,
  Range,
} from './device.types.js';
import { entityControls } from './entity-controls.js';
import { humanise } from './format.js';
import { type EndpointNaming, endpointNaming, propertyName } from './property-names.js';

/** docs/strings.md#validation-rules "Controls": writable unless readOnly or any flag is false; writable if any flag is true. */
export function isWritable(access: Access | undefined | null): boolean {
  if (!access || typeof access !== 'object') return false;
  if (access.readOnly === true) return false;
  const flags = [access.write, access.set, access.command, access.toggle];
  if (flags.some((flag) => flag === false)) return false;
  return flags.some((flag) => flag === true);
}

/** docs/strings.md#constants-and-limits: composite colour inputs the tile never shows. */
export const HIDDEN_COMPOSITE_INPUTS = [
  'x',
  'y',
  'hue',
  'saturation',
  'color_x',
  'color_y',
  'color_hs',
  'color_xy',
];

export const SLIDER_DEFAULTS = { min: 0, max: 255, step: 1 } as const;
export const NUMBER_STEP = 1;
/** docs/strings.md#constants-and-limits: controls and metrics shown before "Show N more". */
export const VISIBLE_ITEMS = 5;

export type ControlKind =
  | 'toggle'
  | 'slider'
  | 'select'
  | 'number'
  | 'color'
  | 'text'
  | 'list'
  | 'composite'
  | 'cover'
  | 'actions'
  | 'alarm'
  | 'update';

export interface Control {
  key: string;
  kind: ControlKind;
  /** The input id sent as `input.id`. */
  inputId: string;
  property: string;
  label: string;
  min: number;
  max: number;
  step: number;
  options: InputOptionReading[];
  /**
   * The current value from the device state (booleans for toggles, #RRGGBB or null for colours,
   * an object for composites, an array for lists), or from the composite it is a field of.
   */
  value: unknown;
  /** `composite`: its fields, each keyed by `property` in the object it sends. */
  fields?: Control[];
  /** `list`: the control of one item (its own value is unused). */
  item?: Control;
  /** `list`: how many items it takes. */
  minItems?: number;
  maxItems?: number;
  /** `toggle`: the device's own on and off values (e.g. LOCK / UNLOCK), when it has them. */
  valueOn?: unknown;
  valueOff?: unknown;
  /** The unit of a number or slider value (`°C`, `%`, `mired`). */
  unit?: string;
  /** The capability's group: `light`, `switch`, `lock`, `cover`, `climate`… */
  group?: string;
  /**
   * `cover`: its Open / Stop / Close select, position and tilt sliders; `alarm`: its actions and
   * code field; `update`: its Install (model/entity-controls.ts).
   */
  parts?: { actions?: Control; position?: Control; tilt?: Control; code?: Control };
  /** `cover`, `alarm`, `update` of a composite: its parts' values go inside the composite's object. */
  composite?: boolean;
  /** A write-only value (not published): an enum of actions (docs/devicehub.md#capability). */
  writeOnly?: boolean;
  /**
   * One part of a composite shown as a control of its own (a Home Assistant light's brightness, a
   * climate's mode): its value is sent inside the composite's object (model/entity-controls.ts).
   */
  within?: Within;
  /** May be the tile's power switch besides a `state`/`on` toggle (a composite's `state`, a Home Assistant switch). */
  power?: boolean;
}

/** The composite a part control belongs to: its input id, property, and whether it has a settable `state`. */
export interface Within {
  inputId: string;
  property: string;
  power: boolean;
}

/** What an input's `type` may be (`cover` is made here, from a cover's parts: model/cover.ts). */
const KINDS: ControlKind[] = ['toggle', 'slider', 'select', 'number', 'color', 'text', 'list', 'composite'];

const capabilityIdOf = (input: InputReading) =>
  input.capability_id ?? input.capabilityId ?? input.capabilityID;

const lastSegment = (name: string | undefined) => name?.split(/[./]/).pop()?.toLowerCase();

export const isHiddenComposite = (input: Pick<InputReading, 'id' | 'property'>) =>
  [lastSegment(input.property), lastSegment(input.id)].some(
    (name) => name !== undefined && HIDDEN_COMPOSITE_INPUTS.includes(name),
  );

const PRIMARY_PROPERTIES = ['state', 'on'];
export const isPrimaryToggle = (control: Pick<Control, 'kind' | 'property' | 'power' | 'within'>) =>
  control.kind === 'toggle' &&
  (control.power === true ||
    (control.within === undefined && PRIMARY_PROPERTIES.includes(control.property.toLowerCase())));

const finite = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isFinite(value) ? value : undefined;

export const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function findCapability(
  capabilities: CapabilityReading[],
  input: InputReading,
): CapabilityReading | undefined {
  const id = capabilityIdOf(input);
  return capabilities.find(
    (capability) =>
      (id !== undefined && capability.id === id) ||
      (input.property !== undefined && capability.property === input.property),
  );
}

/** Inputs carry their own access; without any, the linked capability decides; an input alone counts as writable. */
function inputWritable(input: InputReading, capability: CapabilityReading | undefined): boolean {
  if (input.readOnly === true) return false;
  const access = input.access ?? input.metadata?.access;
  if (access) return isWritable(access);
  if (capability) return isWritable(capability.access);
  return true;
}

/** A toggle's reading: the device's own on/off values (e.g. LOCK/UNLOCK) first, then docs/strings.md#validation-rules's. */
export function readToggle(control: Pick<Control, 'valueOn' | 'valueOff'>, raw: unknown): boolean | null {
  if (control.valueOn !== undefined && raw === control.valueOn) return true;
  if (control.valueOff !== undefined && raw === control.valueOff) return false;
  return readBinary(raw);
}

function controlValue(kind: ControlKind, raw: unknown, metadata: Json | undefined): unknown {
  switch (kind) {
    case 'toggle':
      return readToggle({ valueOn: metadata?.value_on, valueOff: metadata?.value_off }, raw);
    case 'color':
      return reportedColour(raw);
    case 'slider':
    case 'number':
      return finite(raw) ?? null;
    case 'text':
      return typeof raw === 'string' ? raw : null;
    case 'list':
      return Array.isArray(raw) ? raw : null;
    case 'composite':
      return isObject(raw) ? raw : null;
    default:
      return raw ?? null;
  }
}

function makeControl(
  values: Json,
  metadata: Json | undefined,
  kind: ControlKind,
  inputId: string,
  property: string,
  label: string | undefined,
  range: Range | undefined,
  step: number | undefined,
  options: InputOptionReading[],
  extra: { unit?: string | undefined; group?: string | undefined } = {},
): Control {
  const number = kind === 'number';
  // docs/strings.md#constants-and-limits: sliders default to 0–255; a number input has no bounds unless the device gives them.
  const control: Control = {
    key: `${kind}:${inputId}:${property}`,
    kind,
    inputId,
    property,
    label: label || humanise(property),
    min: finite(range?.min) ?? (number ? Number.NEGATIVE_INFINITY : SLIDER_DEFAULTS.min),
    max: finite(range?.max) ?? (number ? Number.POSITIVE_INFINITY : SLIDER_DEFAULTS.max),
    step: finite(range?.step) ?? finite(step) ?? (number ? NUMBER_STEP : SLIDER_DEFAULTS.step),
    options,
    value: controlValue(kind, values[property], metadata),
  };
  if (kind === 'toggle' && metadata?.value_on !== undefined) control.valueOn = metadata.value_on;
  if (kind === 'toggle' && metadata?.value_off !== undefined) control.valueOff = metadata.value_off;
  if (extra.unit) control.unit = extra.unit;
  if (extra.group) control.group = extra.group;
  return control;
}

const optionsFrom = (values: unknown[] | undefined): InputOptionReading[] =>
  (values ?? []).map((value) => ({ value, label: String(value) }));

/** Where an input's value and capability are found: the device, or the composite or list it is part of. */
interface Scope {
  values: Json;
  capabilities: CapabilityReading[];
  nested: boolean;
  /** Top level: how the device's endpoints are called (docs/strings.md#property-names). */
  naming?: EndpointNaming;
}

const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : undefined);

/**
 * A control's label: at the top level the maintained name of its property
 * (docs/strings.md#property-names); inside a composite or list the device's own label.
 */
function labelOf(
  scope: Scope,
  property: string,
  label: string | undefined,
  metadata: Json | undefined,
): string | undefined {
  if (!scope.naming) return label;
  return propertyName(property, { label, endpoint: text(metadata?.endpoint), naming: scope.naming });
}

function fromInput(input: InputReading, scope: Scope): Control | null {
  const kind = input.type as ControlKind;
  if (!KINDS.includes(kind) || (!scope.nested && isHiddenComposite(input))) return null;
  const capability = findCapability(scope.capabilities, input);
  if (!inputWritable(input, capability)) return null;
  const property = input.property ?? capability?.property ?? input.id;
  const inputId = input.id ?? capabilityIdOf(input) ?? property;
  if (!property || !inputId) return null;
  const options = input.options?.length ? input.options : optionsFrom(capability?.enum);
  const metadata = capability?.metadata ?? input.metadata;
  const control = makeControl(
    scope.values,
    metadata,
    kind,
    inputId,
    property,
    labelOf(scope, property, input.label ?? capability?.name, metadata ?? input.metadata),
    input.range ?? input.Range ?? capability?.range,
    capability?.step,
    options,
    {
      unit: capability?.unit ?? capability?.units ?? text(input.metadata?.unit),
      group: capability?.type ?? text(input.metadata?.group),
    },
  );
  if ((input.access ?? input.metadata?.access)?.published === false) control.writeOnly = true;
  if (kind === 'composite') {
    const values = isObject(control.value) ? control.value : {};
    const fields = (input.features ?? [])
      .map((field) => fromInput(field, { values, capabilities: capability?.features ?? [], nested: true }))
      .filter((field): field is Control => field !== null);
    return fields.length > 0 ? { ...control, fields } : null;
  }
  if (kind === 'list') {
    const itemScope = { values: {}, capabilities: capability?.item ? [capability.item] : [], nested: true };
    const item = input.item ? fromInput(input.item, itemScope) : null;
    if (!item) return null;
    return { ...control, item, minItems: finite(input.length?.min), maxItems: finite(input.length?.max) };
  }
  return control;
}

function kindOfCapability(capability: CapabilityReading): ControlKind | null {
  const type = (capability.value_type ?? capability.valueType ?? capability.type ?? '').toLowerCase();
  const property = (capability.property ?? capability.id ?? '').toLowerCase();
  if (capability.kind === 'binary' || type === 'boolean') return 'toggle';
  if (capability.kind === 'enum' || type === 'enum') return 'select';
  if (capability.kind === 'numeric' || type === 'number') return capability.range ? 'slider' : 'number';
  if (capability.kind === 'text' || type === 'string') return 'text';
  if (property.startsWith('color') || type === 'color') return 'color';
  return null;
}

function fromCapability(device: DeviceView, capability: CapabilityReading, scope: Scope): Control | null {
  const kind = kindOfCapability(capability);
  const property = capability.property ?? capability.id;
  if (!kind || !property || !isWritable(capability.access)) return null;
  if (isHiddenComposite({ id: capability.id, property })) return null;
  const control = makeControl(
    device.state,
    capability.metadata,
    kind,
    capability.id ?? property,
    property,
    labelOf(scope, property, capability.name, capability.metadata),
    capability.range,
    capability.step,
    optionsFrom(capability.enum),
    { unit: capability.unit ?? capability.units, group: capability.type },
  );
  if (capability.access?.published === false) control.writeOnly = true;
  return control;
}

/** docs/strings.md#property-names: how this device's endpoints are called, from its description. */
export function deviceNaming(device: Pick<DeviceView, 'capabilities' | 'description'>): EndpointNaming {
  const endpoints = new Set(
    device.capabilities.map((capability) => text(capability.metadata?.endpoint)).filter(Boolean),
  );
  return endpointNaming(device.description, endpoints.size);
}

/**
 * Every control the device offers: its inputs when it declares any, else its writable
 * capabilities. Read-only ones and hidden composite colour parts never appear.
 */
export function deviceControls(device: DeviceView): Control[] {
  const scope: Scope = {
    values: device.state,
    capabilities: device.capabilities,
    nested: false,
    naming: deviceNaming(device),
  };
  const built = device.inputs.length
    ? device.inputs.map((input) => fromInput(input, scope))
    : device.capabilities.map((capability) => fromCapability(device, capability, scope));
  const seen = new Set<string>();
  const controls = built.filter((control): control is Control => {
    if (!control || seen.has(control.key)) return false;
    seen.add(control.key);
    return true;
  });
  return groupCovers(entityControls(device, controls));
}

/** The header's power toggle (state/on) and the rest of the controls. */
export function splitControls(controls: Control[]): { power: Control | null; others: Control[] } {
  const power = controls.find(isPrimaryToggle) ?? null;
  return { power, others: controls.filter((control) => control !== power) };
}

export interface BinaryReading {
  property: string;
  value: boolean;
}

/** Binary values in the state: from binary capabilities (not the power state) and the known binary properties. */
export function binaryReadings(device: DeviceView): BinaryReading[] {
  const properties: string[] = [];
  for (const capability of device.capabilities) {
    const type = (capability.value_type ?? capability.valueType)?.toLowerCase();
    const property = capability.property ?? capability.id;
    if (!property || PRIMARY_PROPERTIES.includes(property.toLowerCase())) continue;
    if (capability.kind === 'binary' || type === 'boolean') properties.push(property);
  }
  for (const property of KNOWN_BINARY_PROPERTIES) {
    if (property in device.state) properties.push(property);
  }
  const readings: BinaryReading[] = [];
  for (const property of new Set(properties)) {
    const value = readBinary(device.state[property]);
    if (value !== null) readings.push({ property, value });
  }
  return readings;
}

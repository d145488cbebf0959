import { KNOWN_BINARY_PROPERTIES, readBinary } from './binary.js';
import { normaliseColour } from './colour.js';
import type { Access, Capability, Device, Input, InputOption, Range } from './device.types.js';
import { humanise } from './format.js';

/** SPEC 5 "Controls": writable unless readOnly or any flag is false; writable if any flag is true. */
export function isWritable(access: Access | undefined | null): boolean {
  if (!access || typeof access !== 'object') return false;
  if (access.readOnly === true) return false;
  const flags = [access.write, access.set, access.command, access.toggle];
  if (flags.some((flag) => flag === false)) return false;
  return flags.some((flag) => flag === true);
}

/** SPEC 9: composite colour inputs the tile never shows. */
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
/** SPEC 9: controls and metrics shown before "Show N more". */
export const VISIBLE_ITEMS = 5;

export type ControlKind = 'toggle' | 'slider' | 'select' | 'number' | 'color';

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
  options: InputOption[];
  /** The current value from the device state (booleans for toggles, #RRGGBB or null for colours). */
  value: unknown;
}

const KINDS: ControlKind[] = ['toggle', 'slider', 'select', 'number', 'color'];

const capabilityIdOf = (input: Input) => input.capability_id ?? input.capabilityId ?? input.capabilityID;

const lastSegment = (name: string | undefined) => name?.split(/[./]/).pop()?.toLowerCase();

export const isHiddenComposite = (input: Pick<Input, 'id' | 'property'>) =>
  [lastSegment(input.property), lastSegment(input.id)].some(
    (name) => name !== undefined && HIDDEN_COMPOSITE_INPUTS.includes(name),
  );

const PRIMARY_PROPERTIES = ['state', 'on'];
export const isPrimaryToggle = (control: Pick<Control, 'kind' | 'property'>) =>
  control.kind === 'toggle' && PRIMARY_PROPERTIES.includes(control.property.toLowerCase());

const finite = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isFinite(value) ? value : undefined;

function findCapability(device: Device, input: Input): Capability | undefined {
  const id = capabilityIdOf(input);
  return device.capabilities.find(
    (capability) =>
      (id !== undefined && capability.id === id) ||
      (input.property !== undefined && capability.property === input.property),
  );
}

/** Inputs carry their own access; without any, the linked capability decides; an input alone counts as writable. */
function inputWritable(input: Input, capability: Capability | undefined): boolean {
  if (input.readOnly === true) return false;
  const access = input.access ?? input.metadata?.access;
  if (access) return isWritable(access);
  if (capability) return isWritable(capability.access);
  return true;
}

function controlValue(kind: ControlKind, raw: unknown, capability: Capability | undefined): unknown {
  if (kind === 'toggle') {
    // A device's own on/off values (e.g. LOCK/UNLOCK) come first, then the spec's binary reading.
    const { value_on: on, value_off: off } = capability?.metadata ?? {};
    if (on !== undefined && raw === on) return true;
    if (off !== undefined && raw === off) return false;
    return readBinary(raw);
  }
  if (kind === 'color') return normaliseColour(raw);
  if (kind === 'slider' || kind === 'number') return finite(raw) ?? null;
  return raw ?? null;
}

function makeControl(
  device: Device,
  capability: Capability | undefined,
  kind: ControlKind,
  inputId: string,
  property: string,
  label: string | undefined,
  range: Range | undefined,
  step: number | undefined,
  options: InputOption[],
): Control {
  const defaultStep = kind === 'number' ? NUMBER_STEP : SLIDER_DEFAULTS.step;
  return {
    key: `${kind}:${inputId}:${property}`,
    kind,
    inputId,
    property,
    label: label || humanise(property),
    min: finite(range?.min) ?? SLIDER_DEFAULTS.min,
    max: finite(range?.max) ?? SLIDER_DEFAULTS.max,
    step: finite(range?.step) ?? finite(step) ?? defaultStep,
    options,
    value: controlValue(kind, device.state[property], capability),
  };
}

const optionsFrom = (values: unknown[] | undefined): InputOption[] =>
  (values ?? []).map((value) => ({ value, label: String(value) }));

function fromInput(device: Device, input: Input): Control | null {
  const kind = input.type as ControlKind;
  if (!KINDS.includes(kind) || isHiddenComposite(input)) return null;
  const capability = findCapability(device, input);
  if (!inputWritable(input, capability)) return null;
  const property = input.property ?? capability?.property ?? input.id;
  const inputId = input.id ?? capabilityIdOf(input) ?? property;
  if (!property || !inputId) return null;
  const options = input.options?.length ? input.options : optionsFrom(capability?.enum);
  return makeControl(
    device,
    capability,
    kind,
    inputId,
    property,
    input.label ?? capability?.name,
    input.range ?? input.Range ?? capability?.range,
    capability?.step,
    options,
  );
}

function kindOfCapability(capability: Capability): ControlKind | null {
  const type = (capability.value_type ?? capability.valueType ?? capability.type ?? '').toLowerCase();
  const property = (capability.property ?? capability.id ?? '').toLowerCase();
  if (capability.kind === 'binary' || type === 'boolean') return 'toggle';
  if (capability.kind === 'enum' || type === 'enum') return 'select';
  if (capability.kind === 'numeric' || type === 'number') return capability.range ? 'slider' : 'number';
  if (property.startsWith('color') || type === 'color') return 'color';
  return null;
}

function fromCapability(device: Device, capability: Capability): Control | null {
  const kind = kindOfCapability(capability);
  const property = capability.property ?? capability.id;
  if (!kind || !property || !isWritable(capability.access)) return null;
  if (isHiddenComposite({ id: capability.id, property })) return null;
  return makeControl(
    device,
    capability,
    kind,
    capability.id ?? property,
    property,
    capability.name,
    capability.range,
    capability.step,
    optionsFrom(capability.enum),
  );
}

/**
 * Every control the device offers: its inputs when it declares any, else its writable
 * capabilities. Read-only ones and hidden composite colour parts never appear.
 */
export function deviceControls(device: Device): Control[] {
  const built = device.inputs.length
    ? device.inputs.map((input) => fromInput(device, input))
    : device.capabilities.map((capability) => fromCapability(device, capability));
  const seen = new Set<string>();
  return built.filter((control): control is Control => {
    if (!control || seen.has(control.key)) return false;
    seen.add(control.key);
    return true;
  });
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
export function binaryReadings(device: Device): BinaryReading[] {
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

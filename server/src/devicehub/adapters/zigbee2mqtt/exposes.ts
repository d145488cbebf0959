import type { Capability, CapabilityAccess, Input } from '@hearth/contracts';
import { isObject, type JsonObject } from '../../../shared/json.js';
import { ACCESS_GET, ACCESS_SET, ACCESS_STATE, SPECIFIC_TYPES } from './z2m.types.js';

/** What the exposes of one device become in the hub's model (docs/devicehub.md#capability, docs/devicehub.md#input). */
export interface ExposesModel {
  capabilities: Capability[];
  inputs: Input[];
  /** Exposes that could not be used, as "type name" strings (for one log line). */
  skipped: string[];
}

type Raw = JsonObject;

const text = (value: unknown): string | undefined =>
  typeof value === 'string' && value.trim() !== '' ? value : undefined;
const finite = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isFinite(value) ? value : undefined;

const COLOR_COMPOSITES = new Set(['color_xy', 'color_hs']);

/** The writability rule of docs/strings.md#validation-rules reads these keys: writable ⇔ settable. */
export function accessFromBits(bits: unknown, binary = false): CapabilityAccess {
  const value = typeof bits === 'number' && Number.isInteger(bits) ? bits : ACCESS_STATE;
  const settable = (value & ACCESS_SET) !== 0;
  const access: CapabilityAccess = {
    readOnly: !settable,
    write: settable,
    set: settable,
    published: (value & ACCESS_STATE) !== 0,
    gettable: (value & ACCESS_GET) !== 0,
  };
  if (settable && binary) access.toggle = true;
  return access;
}

export const humanize = (name: string): string => {
  const spaced = name.replace(/_/g, ' ').trim();
  return spaced.charAt(0).toUpperCase() + spaced.slice(1);
};

const labelOf = (expose: Raw, fallback: string, endpoint: string | undefined) => {
  const base = text(expose.label) ?? humanize(text(expose.name) ?? fallback);
  return endpoint && !base.toLowerCase().includes(endpoint.toLowerCase()) ? `${base} (${endpoint})` : base;
};

/** The access bits of a composite's features together. */
const compositeBits = (features: unknown[]): number =>
  features.reduce<number>((bits, feature) => bits | (isObject(feature) ? Number(feature.access ?? 0) : 0), 0);

function baseCapability(expose: Raw, group: string | undefined, endpoint: string | undefined) {
  const name = text(expose.name);
  const property = text(expose.property) ?? name;
  if (!property) return undefined;
  const metadata: Record<string, unknown> = {};
  if (endpoint) metadata.endpoint = endpoint;
  const description = text(expose.description);
  if (description) metadata.description = description;
  if (text(expose.category)) metadata.category = expose.category;
  return {
    id: property,
    property,
    name: labelOf(expose, property, endpoint),
    type: group ?? String(expose.type),
    metadata,
  };
}

/** How deep composites and lists may nest (real definitions go 3 levels deep). */
const MAX_NESTING = 6;

/** A feature of a composite or the item of a list: labelled by itself, its key in the parent's value. */
const nestedCapability = (feature: unknown, depth: number): Capability | undefined =>
  isObject(feature) && depth <= MAX_NESTING ? toCapability(feature, undefined, undefined, depth) : undefined;

function toCapability(
  expose: Raw,
  group: string | undefined,
  endpoint: string | undefined,
  depth = 0,
): Capability | undefined {
  const base = baseCapability(expose, group, endpoint);
  if (!base) return undefined;
  switch (expose.type) {
    case 'binary':
      if (expose.value_on === undefined || expose.value_off === undefined) return undefined;
      return {
        ...base,
        kind: 'binary',
        value_type: 'boolean',
        access: accessFromBits(expose.access, true),
        metadata: {
          ...base.metadata,
          value_on: expose.value_on,
          value_off: expose.value_off,
          ...(expose.value_toggle !== undefined ? { value_toggle: expose.value_toggle } : {}),
        },
      };
    case 'numeric': {
      const min = finite(expose.value_min);
      const max = finite(expose.value_max);
      const step = finite(expose.value_step);
      const unit = text(expose.unit);
      const range = {
        ...(min !== undefined ? { min } : {}),
        ...(max !== undefined ? { max } : {}),
        ...(step !== undefined ? { step } : {}),
      };
      const presets = Array.isArray(expose.presets) ? expose.presets.filter(isObject) : [];
      return {
        ...base,
        kind: 'numeric',
        value_type: 'number',
        ...(unit ? { unit } : {}),
        ...(Object.keys(range).length > 0 ? { range } : {}),
        ...(step !== undefined ? { step } : {}),
        access: accessFromBits(expose.access),
        metadata: { ...base.metadata, ...(presets.length > 0 ? { presets } : {}) },
      };
    }
    case 'enum': {
      if (!Array.isArray(expose.values)) return undefined;
      const values = expose.values.filter((v) => typeof v === 'string' || typeof v === 'number');
      return {
        ...base,
        kind: 'enum',
        value_type: 'enum',
        enum: values.map(String),
        access: accessFromBits(expose.access),
        metadata: { ...base.metadata, values },
      };
    }
    case 'text':
      return { ...base, kind: 'text', value_type: 'string', access: accessFromBits(expose.access) };
    case 'list': {
      const access = accessFromBits(expose.access);
      const item = isObject(expose.item_type)
        ? nestedCapability({ name: 'item', ...expose.item_type }, depth + 1)
        : undefined;
      const min = finite(expose.length_min);
      const max = finite(expose.length_max);
      return {
        ...base,
        kind: 'list',
        value_type: 'array',
        access,
        // An item is what the list takes: as settable as the list itself.
        ...(item ? { item: { ...item, access } } : {}),
        ...(min !== undefined || max !== undefined
          ? { length: { ...(min !== undefined ? { min } : {}), ...(max !== undefined ? { max } : {}) } }
          : {}),
        metadata: {
          ...base.metadata,
          ...(isObject(expose.item_type) ? { item_type: expose.item_type.type } : {}),
        },
      };
    }
    case 'composite': {
      const features = Array.isArray(expose.features) ? expose.features : [];
      // Settable when any feature is, even if the composite itself says read-only (some do).
      const bits = (typeof expose.access === 'number' ? expose.access : 0) | compositeBits(features);
      const featureNames = features.filter(isObject).map((f) => text(f.property) ?? text(f.name));
      const name = text(expose.name) ?? '';
      if (COLOR_COMPOSITES.has(name)) {
        return {
          ...base,
          name: endpoint ? `Color (${endpoint})` : 'Color',
          kind: 'composite',
          type: group ?? 'composite',
          value_type: 'object',
          access: accessFromBits(bits),
          metadata: { ...base.metadata, color_modes: [name], features: featureNames },
        };
      }
      return {
        ...base,
        kind: 'composite',
        value_type: 'object',
        access: accessFromBits(bits),
        features: features
          .map((feature) => nestedCapability(feature, depth + 1))
          .filter((feature): feature is Capability => feature !== undefined),
        metadata: base.metadata,
      };
    }
    default:
      return undefined;
  }
}

/** The control of a writable capability (docs/devicehub.md#input), or undefined for a read-only one. */
export function toInput(capability: Capability): Input | undefined {
  if (capability.access.readOnly) return undefined;
  const common = {
    id: capability.id,
    property: capability.property,
    capability_id: capability.id,
    label: capability.name,
    access: capability.access,
    readOnly: false,
  };
  const metadata = { ...capability.metadata, access: capability.access };
  switch (capability.kind) {
    case 'binary':
      return { ...common, type: 'toggle', metadata };
    case 'numeric': {
      const range = capability.range;
      const bounded = range?.min !== undefined && range?.max !== undefined;
      return {
        ...common,
        type: bounded ? 'slider' : 'number',
        ...(range ? { range } : {}),
        metadata: { ...metadata, ...(capability.unit ? { unit: capability.unit } : {}) },
      };
    }
    case 'enum':
      return {
        ...common,
        type: 'select',
        options: (capability.enum ?? []).map((value) => ({ value, label: humanize(value) })),
        metadata,
      };
    case 'text':
      return { ...common, type: 'text', metadata };
    case 'list': {
      const item = capability.item && toInput(capability.item);
      if (!item) return undefined;
      return {
        ...common,
        type: 'list',
        item,
        ...(capability.length ? { length: capability.length } : {}),
        metadata,
      };
    }
    case 'composite': {
      if (Array.isArray(capability.metadata?.color_modes))
        return { ...common, type: 'color', metadata: { ...metadata, mode: 'composite' } };
      const features = (capability.features ?? [])
        .map(toInput)
        .filter((input): input is Input => input !== undefined);
      return features.length > 0 ? { ...common, type: 'composite', features, metadata } : undefined;
    }
    default:
      return undefined;
  }
}

/** Turns a device's `definition.exposes` into capabilities and inputs; never throws. */
export function mapExposes(exposes: unknown): ExposesModel {
  const capabilities: Capability[] = [];
  const byId = new Map<string, Capability>();
  const skipped: string[] = [];

  const add = (capability: Capability) => {
    const existing = byId.get(capability.id);
    if (!existing) {
      byId.set(capability.id, capability);
      capabilities.push(capability);
      return;
    }
    // color_xy and color_hs describe the same `color` property: one capability, both modes.
    const modes = existing.metadata?.color_modes;
    const more = capability.metadata?.color_modes;
    if (Array.isArray(modes) && Array.isArray(more)) modes.push(...more.filter((m) => !modes.includes(m)));
  };

  const walk = (
    expose: unknown,
    group: string | undefined,
    parentEndpoint: string | undefined,
    depth: number,
  ) => {
    if (!isObject(expose) || typeof expose.type !== 'string' || depth > 4) {
      skipped.push(
        isObject(expose) ? `${String(expose.type)} ${String(expose.name ?? '')}`.trim() : typeof expose,
      );
      return;
    }
    const endpoint = text(expose.endpoint) ?? parentEndpoint;
    if ((SPECIFIC_TYPES as readonly string[]).includes(expose.type)) {
      const features = Array.isArray(expose.features) ? expose.features : [];
      for (const feature of features) walk(feature, expose.type, endpoint, depth + 1);
      return;
    }
    const capability = toCapability(expose, group, endpoint);
    if (capability) add(capability);
    else skipped.push(`${expose.type} ${String(expose.property ?? expose.name ?? '')}`.trim());
  };

  if (Array.isArray(exposes)) for (const expose of exposes) walk(expose, undefined, undefined, 0);
  const inputs = capabilities.map(toInput).filter((input): input is Input => input !== undefined);
  return { capabilities, inputs, skipped };
}

/** The device's type for the tile: its main specific kind, else "remote" or "sensor". */
export function deviceTypeOf(capabilities: Capability[]): string {
  for (const kind of ['light', 'lock', 'cover', 'climate', 'fan', 'switch']) {
    if (capabilities.some((c) => c.type === kind)) return kind;
  }
  if (capabilities.some((c) => c.property === 'action')) return 'remote';
  if (capabilities.every((c) => c.access.readOnly)) return 'sensor';
  return 'device';
}

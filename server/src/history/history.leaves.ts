import type { Capability, Device, HistoryValue } from '@hearth/contracts';
import { readBinary } from '../devicehub/index.js';
import type { SeriesType } from './history.buckets.js';

/** An enum value its capability's list does not name: not recorded (docs/history.md#recording). */
export const UNLISTED = Symbol('unlisted enum value');

/** One recordable value inside a state property: a capability, or a composite's leaf. */
export interface Leaf {
  /** The property's path: `temperature`, or `color.x` for a composite's leaf. */
  path: string;
  type: SeriesType;
  /**
   * The value under the top-level property, undefined when it is not one of this leaf's, or
   * UNLISTED for text an enum's list does not name.
   */
  read(value: unknown): HistoryValue | typeof UNLISTED | undefined;
}

// -0 is stored as 0 by SQLite: recorded as 0 everywhere.
const numeric = (value: unknown) =>
  typeof value === 'number' && Number.isFinite(value) ? (value === 0 ? 0 : value) : undefined;

function binaryReader(capability: Capability) {
  const meta = capability.metadata ?? {};
  return (value: unknown) => {
    // A boolean is kept as the device reports it (a contact sensor's `true` is "closed").
    if (typeof value === 'boolean') return value;
    if (meta.value_on !== undefined && value === meta.value_on) return true;
    if (meta.value_off !== undefined && value === meta.value_off) return false;
    return readBinary(value);
  };
}

/** Only the values the capability lists: a device (or whoever publishes on its topic) may send any text. */
function enumReader(capability: Capability) {
  const listed = new Set(capability.enum ?? []);
  return (value: unknown) => (typeof value !== 'string' ? undefined : listed.has(value) ? value : UNLISTED);
}

function leavesOfCapability(
  capability: Capability,
  path: string,
  read: (value: unknown) => unknown,
  out: Leaf[],
) {
  const within = (convert: (value: unknown) => ReturnType<Leaf['read']>) => (value: unknown) =>
    convert(read(value));
  switch (capability.kind) {
    case 'numeric':
      out.push({ path, type: 'number', read: within(numeric) });
      break;
    case 'binary':
      out.push({ path, type: 'boolean', read: within(binaryReader(capability)) });
      break;
    case 'enum':
      out.push({ path, type: 'string', read: within(enumReader(capability)) });
      break;
    case 'composite':
      // A colour names its numeric fields only (x, y or hue, saturation).
      if (!capability.features && Array.isArray(capability.metadata?.features)) {
        for (const field of capability.metadata.features) {
          if (typeof field !== 'string') continue;
          out.push({
            path: `${path}.${field}`,
            type: 'number',
            read: (value) => {
              const object = read(value);
              return object !== null && typeof object === 'object'
                ? numeric((object as Record<string, unknown>)[field])
                : undefined;
            },
          });
        }
      }
      for (const feature of capability.features ?? []) {
        leavesOfCapability(
          feature,
          `${path}.${feature.property}`,
          (value) => {
            const object = read(value);
            return object !== null && typeof object === 'object' && !Array.isArray(object)
              ? (object as Record<string, unknown>)[feature.property]
              : undefined;
          },
          out,
        );
      }
      break;
    default:
      // text and list values are not recorded (docs/history.md#recording).
      break;
  }
}

const cache = new WeakMap<readonly Capability[], Map<string, Leaf[]>>();

/** The recordable leaves of a device, by top-level state property (cached per capability list). */
export function leavesOf(device: Pick<Device, 'capabilities'>): Map<string, Leaf[]> {
  const known = cache.get(device.capabilities);
  if (known) return known;
  const byProperty = new Map<string, Leaf[]>();
  const seen = new Set<string>();
  for (const capability of device.capabilities) {
    const leaves: Leaf[] = [];
    leavesOfCapability(capability, capability.property, (value) => value, leaves);
    for (const leaf of leaves) {
      if (seen.has(leaf.path)) continue;
      seen.add(leaf.path);
      const list = byProperty.get(capability.property) ?? [];
      list.push(leaf);
      byProperty.set(capability.property, list);
    }
  }
  cache.set(device.capabilities, byProperty);
  return byProperty;
}

/** The leaf of a device at a path, if it has one. */
export function leafAt(device: Pick<Device, 'capabilities'>, path: string): Leaf | undefined {
  for (const leaves of leavesOf(device).values()) {
    const leaf = leaves.find((l) => l.path === path);
    if (leaf) return leaf;
  }
  return undefined;
}

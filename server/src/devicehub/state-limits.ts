import type { DeviceState } from '@hearth/contracts';

/** Most JSON bytes a device's merged state may take (a real one is well under 2 KB). */
export const MAX_STATE_BYTES = 16 * 1024;
/** Most JSON bytes one value may take; longer strings are cut, other values dropped. */
export const MAX_VALUE_BYTES = 4 * 1024;

/**
 * JSON bytes of a short string of printable ASCII without `"` or `\` (JSON adds only the quotes),
 * else -1. A loop: for the short keys and values of a state it is cheaper than a regular expression.
 */
function plainSize(value: string): number {
  if (value.length >= 256) return -1;
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if (code < 0x20 || code > 0x7e || code === 0x22 || code === 0x5c) return -1;
  }
  return value.length + 2;
}

/** JSON bytes of state keys: a device reports the same few keys again and again. */
const keySizes = new Map<string, number>();
const MAX_KEY_SIZES = 10_000;

function keySize(key: string): number {
  let size = keySizes.get(key);
  if (size === undefined) {
    size = sizeOf(key);
    if (keySizes.size >= MAX_KEY_SIZES) keySizes.clear();
    keySizes.set(key, size);
  }
  return size;
}

/**
 * Characters of a finite number in JSON; integers (most readings) without building the string.
 * Others through JSON.stringify rather than String(), whose result V8 keeps in its number-to-string
 * cache: a string per reading that outlived young-generation collections, old-generation garbage.
 */
function numberSize(value: number): number {
  if (!Number.isInteger(value) || value >= 1e15 || value <= -1e15) return JSON.stringify(value).length;
  let digits = 1;
  let rest = value < 0 ? -value : value;
  while (rest >= 10) {
    rest /= 10;
    digits++;
  }
  return value < 0 ? digits + 1 : digits;
}

/** JSON bytes of a value; numbers, booleans and plain strings without serialising them. */
function sizeOf(value: unknown): number {
  switch (typeof value) {
    case 'number':
      return Number.isFinite(value) ? numberSize(value) : 4;
    case 'boolean':
      return value ? 4 : 5;
    case 'string': {
      const plain = plainSize(value);
      if (plain >= 0) return plain;
      break;
    }
    default:
      if (value === null) return 4;
  }
  return Buffer.byteLength(JSON.stringify(value) ?? '', 'utf8');
}

/** JSON bytes of `"key":value` in an object (0 for undefined, which JSON leaves out). */
const entrySize = (key: string, value: unknown): number =>
  value === undefined ? 0 : keySize(key) + 1 + sizeOf(value);

/**
 * The JSON size of each state this module returned, so a report costs the size of what it
 * changes rather than a serialisation of the whole state (issue 10: 1000 reports a second).
 */
const knownSize = new WeakMap<DeviceState, { bytes: number; entries: number }>();

/** Size of a state as JSON: `{` + entries joined by commas + `}`. */
function measure(state: DeviceState): { bytes: number; entries: number } {
  const known = knownSize.get(state);
  if (known) return known;
  let bytes = 0;
  let entries = 0;
  for (const [key, value] of Object.entries(state)) {
    const size = entrySize(key, value);
    if (size === 0) continue;
    bytes += size;
    entries++;
  }
  return { bytes, entries };
}

const jsonBytes = ({ bytes, entries }: { bytes: number; entries: number }) =>
  2 + bytes + Math.max(0, entries - 1);

/** The JSON size of a state, as mergeBounded keeps it (exported for tests). */
export const stateBytes = (state: DeviceState): number => jsonBytes(measure(state));

export interface BoundedState {
  state: DeviceState;
  /** Keys dropped or cut to stay within the limits (for one warning). */
  trimmed: string[];
}

/** Cuts a string to at most `bytes` of UTF-8 without splitting a character. */
function cut(text: string, bytes: number): string {
  const buffer = Buffer.from(text, 'utf8');
  if (buffer.length <= bytes) return text;
  return buffer
    .subarray(0, bytes)
    .toString('utf8')
    .replace(/\uFFFD$/, '');
}

/**
 * Merges a report into a device's state within the limits: a value over MAX_VALUE_BYTES is cut
 * (a string) or dropped; keys that would take the whole state over MAX_STATE_BYTES are dropped,
 * the report's last keys first. What the device had before stays.
 *
 * The running size of the state is kept beside it (the state objects this returns are the
 * device's state until the next report), so each call measures only the report's values.
 */
export function mergeBounded(current: DeviceState, report: DeviceState): BoundedState {
  const trimmed: string[] = [];
  const merged: DeviceState = { ...current };
  const size = { ...measure(current) };
  /**
   * Replaces merged[key] by value (undefined: removes it), keeping `size` true; `had`: what
   * merged[key] is now, if the caller has read it already.
   */
  const put = (key: string, value: unknown, after = entrySize(key, value), had = merged[key]) => {
    const before = entrySize(key, had);
    size.bytes += after - before;
    size.entries += (after > 0 ? 1 : 0) - (before > 0 ? 1 : 0);
    if (value === undefined) delete merged[key];
    else merged[key] = value;
  };
  /** Keys whose value was dropped whole (never accepted). */
  let dropped: Set<string> | undefined;
  for (const key in report) {
    const value = report[key];
    const had = merged[key];
    // Zigbee2MQTT sends a device's whole state every time: most values are the ones it has.
    if (value === had && (value === null || typeof value !== 'object')) continue;
    const nameSize = keySize(key);
    const valueSize = value === undefined ? 0 : sizeOf(value);
    if (nameSize + valueSize <= MAX_VALUE_BYTES) {
      put(key, value, value === undefined ? 0 : nameSize + 1 + valueSize, had);
    } else if (typeof value === 'string') {
      put(key, cut(value, MAX_VALUE_BYTES - nameSize - 16));
      trimmed.push(key);
    } else {
      trimmed.push(key);
      dropped = (dropped ?? new Set()).add(key);
    }
  }
  if (jsonBytes(size) > MAX_STATE_BYTES) {
    const accepted = Object.keys(report).filter((key) => !dropped?.has(key));
    while (jsonBytes(size) > MAX_STATE_BYTES && accepted.length > 0) {
      const key = accepted.pop() as string;
      put(key, key in current ? current[key] : undefined);
      if (!trimmed.includes(key)) trimmed.push(key);
    }
  }
  // A state that was already too large (stored before these limits) loses its largest values.
  if (jsonBytes(size) > MAX_STATE_BYTES) {
    const largest = Object.keys(merged).sort((a, b) => sizeOf(merged[b]) - sizeOf(merged[a]));
    for (const key of largest) {
      if (jsonBytes(size) <= MAX_STATE_BYTES) break;
      put(key, undefined);
      if (!trimmed.includes(key)) trimmed.push(key);
    }
  }
  knownSize.set(merged, size);
  return { state: merged, trimmed };
}

const NOTHING_TRIMMED: readonly string[] = Object.freeze([]);

/**
 * Whether a reported value is the one the state holds, objects and arrays compared as their JSON
 * (the same keys in the same order): Zigbee2MQTT repeats a light's `color` or a device's `update`
 * in every message, and the state keeps the object it has rather than each fresh copy.
 */
function unchanged(value: unknown, had: unknown, depth = 0): boolean {
  if (value === had) return true;
  if (typeof value !== 'object' || typeof had !== 'object' || value === null || had === null) return false;
  if (depth >= 8) return false;
  if (Array.isArray(value)) {
    if (!Array.isArray(had) || value.length !== had.length) return false;
    for (let i = 0; i < value.length; i++) if (!unchanged(value[i], had[i], depth + 1)) return false;
    return true;
  }
  if (Array.isArray(had)) return false;
  const keys = Object.keys(had);
  let i = 0;
  for (const key in value) {
    if (keys[i++] !== key) return false;
    if (!unchanged((value as Record<string, unknown>)[key], (had as Record<string, unknown>)[key], depth + 1))
      return false;
  }
  return i === keys.length;
}

/**
 * mergeBounded in place: the report is merged into `state` itself, which keeps its identity, and
 * the keys cut or dropped are returned (the same empty list when nothing was). A device's state
 * is merged 1000 times a second at full load; a fresh object per report was garbage that lived
 * long enough to be promoted to V8's old generation, whose collections were the stream's longest
 * pauses. A report within the limits (nearly all of them) is measured first and then applied; one
 * that is not goes through mergeBounded, whose result replaces the state's contents.
 */
export function mergeInto(state: DeviceState, report: DeviceState): readonly string[] {
  const known = knownSize.get(state);
  const size = known ?? measure(state);
  let { bytes, entries } = size;
  for (const key in report) {
    const value = report[key];
    const had = state[key];
    if (unchanged(value, had)) continue;
    const after = value === undefined ? 0 : keySize(key) + 1 + sizeOf(value);
    if (after > MAX_VALUE_BYTES + 1) return replaceBy(state, mergeBounded(state, report));
    const before = entrySize(key, had);
    bytes += after - before;
    entries += (after > 0 ? 1 : 0) - (before > 0 ? 1 : 0);
  }
  if (jsonBytes({ bytes, entries }) > MAX_STATE_BYTES) return replaceBy(state, mergeBounded(state, report));
  for (const key in report) {
    const value = report[key];
    if (value === undefined) delete state[key];
    else if (!unchanged(value, state[key])) state[key] = value;
  }
  if (known) {
    known.bytes = bytes;
    known.entries = entries;
  } else knownSize.set(state, { bytes, entries });
  return NOTHING_TRIMMED;
}

/** Makes `state` hold what `merged` holds (its keys in their order), with its size; the trimmed keys. */
function replaceBy(state: DeviceState, merged: BoundedState): readonly string[] {
  for (const key of Object.keys(state)) delete state[key];
  Object.assign(state, merged.state);
  knownSize.set(state, { ...measure(merged.state) });
  return merged.trimmed;
}

/**
 * docs/activity.md#recording: an entry's detail as stored, bounded field by field, so that no one
 * field (a key nested 10 000 deep, a 5 000-character key, a list of thousands) can blank the entry
 * or push the others past the cut.
 */

/** The most an entry's detail takes, as JSON. */
export const MAX_DETAIL_CHARS = 4000;

interface Bounds {
  /** Levels below the detail itself; deeper values read `…`. */
  depth: number;
  /** Keys kept of an object, in order; the number left out goes under `…`. */
  keys: number;
  /** Items kept of a list; a last `…` says there were more. */
  items: number;
  /** Characters of a key, and of a text, before `…`. */
  key: number;
  text: number;
}

/** Tighter and tighter, until the detail fits (a normal one fits the first). */
const BOUNDS: readonly Bounds[] = [
  { depth: 6, keys: 50, items: 50, key: 64, text: 500 },
  { depth: 4, keys: 16, items: 16, key: 32, text: 64 },
  { depth: 2, keys: 8, items: 8, key: 16, text: 16 },
];

const MORE = '…';

const cut = (text: string, max: number) => (text.length <= max ? text : `${text.slice(0, max)}${MORE}`);

/** `value` within `bounds`, as JSON would hold it (undefined: left out, as JSON leaves it out). */
function bounded(value: unknown, bounds: Bounds, depth: number): unknown {
  switch (typeof value) {
    case 'string':
      return cut(value, bounds.text);
    case 'number':
    case 'boolean':
      return value;
    case 'bigint':
      return cut(String(value), bounds.text);
    case 'object':
      break;
    default:
      return undefined;
  }
  if (value === null) return null;
  if (depth >= bounds.depth) return MORE;
  const { toJSON } = value as { toJSON?: unknown };
  if (typeof toJSON === 'function') return bounded(toJSON.call(value), bounds, depth + 1);
  if (Array.isArray(value)) {
    const items = value.slice(0, bounds.items).map((item) => bounded(item, bounds, depth + 1) ?? null);
    if (value.length > bounds.items) items.push(MORE);
    return items;
  }
  const keys = Object.keys(value);
  const out: Record<string, unknown> = {};
  for (const key of keys.slice(0, bounds.keys)) {
    const item = bounded((value as Record<string, unknown>)[key], bounds, depth + 1);
    if (item !== undefined) out[cut(key, bounds.key)] = item;
  }
  if (keys.length > bounds.keys) out[MORE] = keys.length - bounds.keys;
  return out;
}

/** The detail as the JSON text an entry stores: bounded, at most MAX_DETAIL_CHARS. */
export function boundedDetail(detail: Record<string, unknown> | undefined): string {
  if (!detail) return '{}';
  let text = '{}';
  for (const bounds of BOUNDS) {
    text = JSON.stringify(bounded(detail, bounds, 0)) ?? '{}';
    if (text.length <= MAX_DETAIL_CHARS) return text;
  }
  // Only text that JSON escapes many times over (control characters) gets here.
  for (let length = MAX_DETAIL_CHARS; ; length = Math.floor(length / 2)) {
    const truncated = JSON.stringify({ truncated: text.slice(0, length) });
    if (truncated.length <= MAX_DETAIL_CHARS) return truncated;
  }
}

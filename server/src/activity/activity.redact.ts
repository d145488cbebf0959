import type { ActivityRow } from './activity.repository.js';

/** What a viewer narrowed by access rules may see (docs/activity.md#who-sees-what). */
export interface Sees {
  /** Their own entries stay, with what they may not see left out. */
  viewerId: string;
  device(id: string): boolean;
  room(id: string): boolean;
  floor(id: string): boolean;
}

type Detail = Record<string, unknown>;

/** Keys of `detail` that list devices or rooms: an array of ids, or an object keyed by id (`access.change`). */
const LISTS = { device_ids: 'device', devices: 'device', rooms: 'room' } as const;

/** The list with the ids the viewer may not see left out, and how many it left out. */
function visibleOf(list: unknown, sees: (id: string) => boolean): { list: unknown; hidden: number } {
  if (Array.isArray(list)) {
    const kept = list.filter((id) => typeof id !== 'string' || sees(id));
    return { list: kept, hidden: list.length - kept.length };
  }
  if (list !== null && typeof list === 'object') {
    const entries = Object.entries(list);
    const kept = entries.filter(([id]) => sees(id));
    return { list: Object.fromEntries(kept), hidden: entries.length - kept.length };
  }
  return { list, hidden: 0 };
}

const size = (list: unknown) =>
  Array.isArray(list)
    ? list.length
    : list !== null && typeof list === 'object'
      ? Object.keys(list).length
      : 0;

/**
 * docs/activity.md#who-sees-what: an entry as a narrowed viewer may read it, or undefined when it
 * is about nothing they may see. Another's entry about a device, room or floor they may not see
 * goes; so does one whose lists (`device_ids`, `devices`, `rooms`) named only such things. Lists
 * keep the ids they may see, and `count` drops by the ids left out. The viewer's own entries stay,
 * without the device, room or floor they may not see (a refused command keeps its state, not the
 * device's id or name).
 */
export function redact(row: ActivityRow, sees: Sees): ActivityRow | undefined {
  // Their own: as themselves, or through one of their API tokens.
  const own =
    (row.actor_type === 'user' && row.actor_id === sees.viewerId) || row.actor_owner_id === sees.viewerId;
  let detail: Detail;
  try {
    detail = JSON.parse(row.detail) as Detail;
  } catch {
    detail = {};
  }
  const out: ActivityRow = { ...row };
  let dirty = false;
  if (row.device_id !== null && !sees.device(row.device_id)) {
    if (!own) return undefined;
    out.device_id = null;
    // A device entry's `name` is the device's (a room entry's is the name the actor gave).
    if (/^(device|history)\./.test(row.kind) && 'name' in detail) {
      delete detail.name;
      dirty = true;
    }
  }
  if (row.room_id !== null && !sees.room(row.room_id)) {
    if (!own) return undefined;
    out.room_id = null;
  }
  for (const key of ['room_id', 'floor_id'] as const) {
    const id = detail[key];
    if (typeof id !== 'string' || (key === 'room_id' ? sees.room(id) : sees.floor(id))) continue;
    if (!own) return undefined;
    detail[key] = null;
    dirty = true;
  }
  let named = 0;
  let hidden = 0;
  for (const [key, kind] of Object.entries(LISTS)) {
    if (!(key in detail)) continue;
    const visible = visibleOf(detail[key], (id) => (kind === 'device' ? sees.device(id) : sees.room(id)));
    named += size(detail[key]);
    if (visible.hidden === 0) continue;
    hidden += visible.hidden;
    detail[key] = visible.list;
  }
  if (hidden > 0) {
    if (!own && hidden === named) return undefined;
    if (typeof detail.count === 'number') detail.count = Math.max(0, detail.count - hidden);
    dirty = true;
  }
  return dirty ? { ...out, detail: JSON.stringify(detail) } : out;
}

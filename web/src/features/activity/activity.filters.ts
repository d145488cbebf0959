import { ACTIVITY_KINDS, type ActivityKind } from '@hearth/contracts';
import type { RANGE_LABELS } from './activity.messages.js';

export type ActivityRange = keyof typeof RANGE_LABELS;
export const RANGES: readonly ActivityRange[] = ['', '1h', '24h', '7d', '30d'];
const RANGE_MS: Record<Exclude<ActivityRange, ''>, number> = {
  '1h': 3_600_000,
  '24h': 86_400_000,
  '7d': 7 * 86_400_000,
  '30d': 30 * 86_400_000,
};

/** The page's filters, as the address bar keeps them (`?actor=&room_id=&device_id=&kind=&range=`). */
export interface ActivityFilters {
  actor: string;
  room_id: string;
  device_id: string;
  kind: ActivityKind | '';
  range: ActivityRange;
}

export const NO_FILTERS: ActivityFilters = { actor: '', room_id: '', device_id: '', kind: '', range: '' };

const text = (value: string | null) => (value ?? '').trim().slice(0, 200);

/** Reads the filters from the address bar; anything unknown reads as "any". */
export function filtersFromSearch(search: URLSearchParams): ActivityFilters {
  const kind = search.get('kind') ?? '';
  const range = search.get('range') ?? '';
  return {
    actor: text(search.get('actor')),
    room_id: text(search.get('room_id')),
    device_id: text(search.get('device_id')),
    kind: (ACTIVITY_KINDS as readonly string[]).includes(kind) ? (kind as ActivityKind) : '',
    range: (RANGES as readonly string[]).includes(range) ? (range as ActivityRange) : '',
  };
}

/** The address bar's query for these filters (only those set, in a fixed order). */
export function searchFromFilters(filters: ActivityFilters): URLSearchParams {
  const search = new URLSearchParams();
  for (const key of ['actor', 'room_id', 'device_id', 'kind', 'range'] as const) {
    if (filters[key]) search.set(key, filters[key]);
  }
  return search;
}

/** The API's query for these filters at `now` (a range becomes `from`). */
export function apiQuery(filters: ActivityFilters, now: number): Record<string, string | undefined> {
  return {
    actor: filters.actor || undefined,
    room_id: filters.room_id || undefined,
    device_id: filters.device_id || undefined,
    kind: filters.kind || undefined,
    from: filters.range ? new Date(now - RANGE_MS[filters.range]).toISOString() : undefined,
  };
}

/** GET /api/activity/export with the same filters (the auth_token cookie signs it in). */
export function exportHref(filters: ActivityFilters, now: number): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(apiQuery(filters, now))) if (value) search.set(key, value);
  const query = search.toString();
  return `/api/activity/export${query ? `?${query}` : ''}`;
}

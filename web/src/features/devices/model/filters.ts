import { type Room, SOURCE_PROTOCOLS } from '@hearth/contracts';
import { readBinary } from './binary.js';
import type { DeviceView } from './device.types.js';

/**
 * docs/screens.md#toolbar: the Devices page's search, filters and grouping, as the URL holds them
 * (`/devices?q=lamp&room=kitchen&type=light&source=tasmota&status=offline&battery=low&group=room`).
 */
export interface DeviceFilter {
  /** Free text, matched word by word against name, model, manufacturer and room name. */
  q: string;
  /** A room's id or slug, or `unassigned`; null: every room. */
  room: string | null;
  /** A device type (`light`, `switch`, `sensor`…); null: every type. */
  type: string | null;
  /** A source, by its protocol (`zigbee`, `homeassistant`, `tasmota`, `shelly`); null: every source. */
  source: string | null;
  status: 'online' | 'offline' | null;
  battery: 'low' | null;
  group: 'room' | null;
}

export const NO_FILTER: DeviceFilter = {
  q: '',
  room: null,
  type: null,
  source: null,
  status: null,
  battery: null,
  group: null,
};

/** The `room` value of devices in no room. */
export const UNASSIGNED = 'unassigned';
/** Battery below this percentage counts as low (as does `battery_low: true`). */
export const LOW_BATTERY_PERCENT = 20;
/** Longest search text kept from a URL. */
export const MAX_QUERY_LENGTH = 200;

const STATUSES = ['online', 'offline'] as const;

/** The filter a URL's query says; values it does not know are left out (a stale bookmark still opens). */
export function parseFilter(search: string | URLSearchParams): DeviceFilter {
  const params = typeof search === 'string' ? new URLSearchParams(search) : search;
  const value = (name: string) => params.get(name)?.trim() || null;
  const status = value('status')?.toLowerCase();
  return {
    q: (params.get('q') ?? '').slice(0, MAX_QUERY_LENGTH),
    room: value('room'),
    type: value('type')?.toLowerCase() ?? null,
    source: value('source')?.toLowerCase() ?? null,
    status: (STATUSES as readonly string[]).includes(status ?? '')
      ? (status as DeviceFilter['status'])
      : null,
    battery: value('battery')?.toLowerCase() === 'low' ? 'low' : null,
    group: value('group')?.toLowerCase() === 'room' ? 'room' : null,
  };
}

/** The query string (without `?`) for a filter, parameters in a fixed order, empty ones left out. */
export function filterToSearch(filter: DeviceFilter): string {
  const params = new URLSearchParams();
  if (filter.q.trim()) params.set('q', filter.q);
  if (filter.room) params.set('room', filter.room);
  if (filter.type) params.set('type', filter.type);
  if (filter.source) params.set('source', filter.source);
  if (filter.status) params.set('status', filter.status);
  if (filter.battery) params.set('battery', filter.battery);
  if (filter.group) params.set('group', filter.group);
  return params.toString();
}

/** True when anything narrows the list (grouping does not). */
export const isFiltering = (filter: DeviceFilter) =>
  Boolean(filter.q.trim() || filter.room || filter.type || filter.source || filter.status || filter.battery);

/** docs/screens.md#on-a-phone: how many of the filters behind the "Filters" button are on (the search box stays in view). */
export const hiddenFiltersOn = (filter: DeviceFilter) =>
  [filter.room, filter.type, filter.source, filter.status, filter.battery].filter(Boolean).length;

/** A URL-friendly form of a room's name: `Living room` → `living-room`. */
export function slugify(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '');
}

/** What a room is called in the URL: its slug when no other room has it (and it is not `unassigned`), else its id. */
export function roomParam(rooms: Room[], room: Room): string {
  const slug = slugify(room.name);
  if (!slug || slug === UNASSIGNED) return room.id;
  const clash = rooms.some((other) => other.id !== room.id && slugify(other.name) === slug);
  return clash ? room.id : slug;
}

/**
 * The rooms a `room` value names: `unassigned` → `null` (no room); a room's id, else the first room
 * (in order) whose slug it is; `undefined` when it names none.
 */
export function resolveRoom(rooms: Room[], value: string): string | null | undefined {
  if (value.toLowerCase() === UNASSIGNED) return null;
  const byId = rooms.find((room) => room.id === value);
  if (byId) return byId.id;
  const slug = slugify(value);
  return rooms.find((room) => slugify(room.name) === slug)?.id;
}

/** Battery under LOW_BATTERY_PERCENT, or a `battery_low` / `low_battery` that reads true. */
export function isBatteryLow(device: DeviceView): boolean {
  const { battery } = device.state;
  if (typeof battery === 'number' && Number.isFinite(battery) && battery < LOW_BATTERY_PERCENT) return true;
  return readBinary(device.state.battery_low) === true || readBinary(device.state.low_battery) === true;
}

/** What the filters and the grouping look at in a device, each part on its own (the page listens only to the parts in use). */
export const FACETS = ['room', 'type', 'make', 'source', 'online', 'battery'] as const;
export type Facet = (typeof FACETS)[number];

export const deviceFacets = (device: DeviceView): Record<Facet, string> => ({
  room: String(device.roomId),
  type: String(device.type),
  make: `${device.manufacturer}|${device.model}`,
  source: String(device.protocol),
  online: String(device.online),
  battery: String(isBatteryLow(device)),
});

/** The facets a filter (and grouping) depends on: room, type and make always, status and battery when filtered by them. */
export function facetsOf(filter: DeviceFilter): Facet[] {
  const facets: Facet[] = ['room', 'type', 'make'];
  if (filter.source) facets.push('source');
  if (filter.status) facets.push('online');
  if (filter.battery) facets.push('battery');
  return facets;
}

export interface FilterContext {
  /** A room's name by id. */
  roomName(id: string): string | undefined;
  /** The room the filter's `room` names (resolveRoom), worked out once per filtering. */
  room: string | null | undefined;
}

/** The search text split into lower-case words. */
export const queryWords = (q: string) => q.toLowerCase().split(/\s+/).filter(Boolean);

/** Whether the device passes every part of the filter; `words` is queryWords(filter.q). */
export function matchesFilter(
  device: DeviceView,
  filter: DeviceFilter,
  words: string[],
  context: FilterContext,
): boolean {
  if (filter.room && device.roomId !== context.room) return false;
  if (filter.type && (device.type ?? '').toLowerCase() !== filter.type) return false;
  if (filter.source && (device.protocol ?? '').toLowerCase() !== filter.source) return false;
  if (filter.status === 'online' && !device.online) return false;
  if (filter.status === 'offline' && device.online) return false;
  if (filter.battery === 'low' && !isBatteryLow(device)) return false;
  if (words.length > 0) {
    const room = device.roomId ? context.roomName(device.roomId) : undefined;
    const haystack = [device.displayName, device.name, device.model, device.manufacturer, room]
      .filter(Boolean)
      .join('\n')
      .toLowerCase();
    if (!words.every((word) => haystack.includes(word))) return false;
  }
  return true;
}

/** The device types present, sorted, for the type filter's options. */
export function deviceTypes(devices: Iterable<DeviceView>): string[] {
  const types = new Set<string>();
  for (const device of devices) if (device.type) types.add(device.type.toLowerCase());
  return [...types].sort();
}

/** The sources present (their protocols), in the order of SOURCE_PROTOCOLS, then any other, for the source filter's options. */
export function deviceSources(devices: Iterable<DeviceView>): string[] {
  const found = new Set<string>();
  for (const device of devices) if (device.protocol) found.add(device.protocol.toLowerCase());
  const known = SOURCE_PROTOCOLS.filter((protocol) => found.has(protocol));
  return [...known, ...[...found].filter((protocol) => !(known as string[]).includes(protocol)).sort()];
}

import type { Room } from '@hearth/contracts';
import { startTransition, useCallback, useMemo, useOptimistic, useSyncExternalStore } from 'react';
import { useSearchParams } from 'react-router';
import { deviceStats } from '../model/device.model.js';
import type { DeviceStats, DeviceView } from '../model/device.types.js';
import {
  type DeviceFilter,
  type Facet,
  facetsOf,
  filterToSearch,
  isFiltering,
  matchesFilter,
  parseFilter,
  queryWords,
  resolveRoom,
} from '../model/filters.js';
import type { DeviceStore } from '../store/device-store.js';
import { useDeviceIds, useDeviceStats } from './use-device-store.js';

/**
 * The filter the URL holds and a way to change it: `replace` for typing, a new history entry otherwise.
 * The router applies a new address in a transition, so until it does the controls show the change
 * already (useOptimistic): a checkbox clicked, or a letter typed, never snaps back meanwhile.
 */
export function useDeviceFilter() {
  const [params, setParams] = useSearchParams();
  const stored = useMemo(() => parseFilter(params), [params]);
  const [filter, show] = useOptimistic(stored, (current: DeviceFilter, change: Partial<DeviceFilter>) => ({
    ...current,
    ...change,
  }));
  const update = useCallback(
    (change: Partial<DeviceFilter>, replace = false) => {
      startTransition(() => {
        show(change);
        setParams((current) => new URLSearchParams(filterToSearch({ ...parseFilter(current), ...change })), {
          replace,
        });
      });
    },
    [setParams, show],
  );
  return { filter, update };
}

export interface FilteredDevices {
  /** The listed devices that pass the filter, in the page's order. */
  ids: string[];
  /** The stats of those (equal to the store's when nothing filters). */
  stats: DeviceStats;
  filtering: boolean;
}

/**
 * The page's listing after the filter: recomputed when the list, the stats, a device's filtered
 * facets the filter uses (room, type, make; status and battery only when filtered by them), the
 * rooms or the filter change — not on every state message.
 */
export function useFilteredDevices(store: DeviceStore, filter: DeviceFilter, rooms: Room[]): FilteredDevices {
  const ids = useDeviceIds(store);
  const allStats = useDeviceStats(store);
  const watched = facetsOf(filter).join();
  const facetsVersion = useCallback(
    () => store.getFacetsVersion(watched.split(',') as Facet[]),
    [store, watched],
  );
  const facets = useSyncExternalStore(store.subscribe, facetsVersion);
  const filtering = isFiltering(filter);
  // biome-ignore lint/correctness/useExhaustiveDependencies: facets and allStats say when devices changed in place.
  return useMemo(() => {
    if (!filtering) return { ids, stats: allStats, filtering };
    const names = new Map(rooms.map((room) => [room.id, room.name]));
    const context = {
      roomName: (id: string) => names.get(id),
      room: filter.room ? resolveRoom(rooms, filter.room) : undefined,
    };
    const words = queryWords(filter.q);
    const matching: DeviceView[] = [];
    for (const id of ids) {
      const device = store.getDevice(id);
      if (device && matchesFilter(device, filter, words, context)) matching.push(device);
    }
    return { ids: matching.map((device) => device.key), stats: deviceStats(matching), filtering };
  }, [store, ids, allStats, facets, filter, rooms, filtering]);
}

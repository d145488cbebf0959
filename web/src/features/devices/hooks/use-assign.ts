import type { Room } from '@hearth/contracts';
import { useCallback, useEffect, useSyncExternalStore } from 'react';
import { useToast } from '../../../shared/toast/toast-context.js';
import { type AssignApi, type AssignTarget, moveDevices } from '../../rooms/assign.js';
import type { FavouritesStore } from '../../rooms/favourites-store.js';
import { assignDevices, createRoom } from '../../rooms/rooms.api.js';
import type { RoomsStore } from '../../rooms/rooms-store.js';
import type { SelectionStore } from '../store/selection-store.js';

export const ASSIGN_API: AssignApi = { createRoom, assignDevices };

const noop = () => () => {};
const EMPTY: Room[] = [];

/**
 * Moves devices (docs/rooms.md#assignment): one call for all of them, the room created first
 * when it is new; a failure shows in a toast. Tiles follow from the stream's `device.upsert`s.
 */
export function useMoveDevices() {
  const { showToast } = useToast();
  return useCallback(
    async (target: AssignTarget, deviceIds: string[]) => {
      const error = await moveDevices(ASSIGN_API, target, deviceIds);
      if (error) showToast(error);
      return error;
    },
    [showToast],
  );
}

/** The rooms, in their order, live (read on first use); empty without a rooms hub (tests of other parts). */
export function useRoomList(store: RoomsStore | undefined): Room[] {
  const rooms = useSyncExternalStore(store?.subscribe ?? noop, () => store?.getSnapshot().rooms ?? EMPTY);
  useEffect(() => {
    void store?.load();
  }, [store]);
  return rooms;
}

/** Whether the device is starred: re-renders the tile only when that answer changes. */
export function useIsFavourite(store: FavouritesStore | undefined, deviceId: string | null) {
  useEffect(() => {
    void store?.load();
  }, [store]);
  return useSyncExternalStore(store?.subscribe ?? noop, () =>
    deviceId && store ? store.getSnapshot().ids.includes(deviceId) : false,
  );
}

/** Whether the device is selected, and whether "Select" mode is on. */
export function useTileSelection(store: SelectionStore | undefined, deviceId: string | null) {
  const active = useSyncExternalStore(store?.subscribe ?? noop, () => store?.getSnapshot().active ?? false);
  const selected = useSyncExternalStore(store?.subscribe ?? noop, () =>
    deviceId && store ? store.isSelected(deviceId) : false,
  );
  return { active, selected };
}

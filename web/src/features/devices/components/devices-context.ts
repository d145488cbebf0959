import { createContext, useContext } from 'react';
import type { RoomsHub } from '../../rooms/use-rooms.js';
import type { HubActions } from '../hooks/use-device-hub.js';
import type { DeviceStore } from '../store/device-store.js';
import type { SelectionStore } from '../store/selection-store.js';

export interface DevicesContextValue {
  store: DeviceStore;
  actions: HubActions;
  /** Rooms, floors and favourites of docs/rooms.md (absent in tests of other parts). */
  rooms?: RoomsHub;
  /** The tiles picked for "Move to room" (absent in tests of other parts). */
  selection?: SelectionStore;
  /**
   * docs/access.md: false for a `user` shown the devices their rules give them: their rooms
   * read-only, and no rename, history, recording, access settings, favourites, room actions or
   * room changes (those are a resident's or admin's). Absent: true.
   */
  manager?: boolean;
  /** An admin: a firmware update's Install and a capability's read error show (docs/screens.md#devices-of-other-sources). Absent: false. */
  admin?: boolean;
}

export const DevicesContext = createContext<DevicesContextValue | null>(null);

export function useDevicesContext(): DevicesContextValue {
  const value = useContext(DevicesContext);
  if (!value) throw new Error('useDevicesContext outside the Devices page');
  return value;
}

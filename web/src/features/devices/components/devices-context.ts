import { createContext, useContext } from 'react';
import type { HubActions } from '../hooks/use-device-hub.js';
import type { DeviceStore } from '../store/device-store.js';

export interface DevicesContextValue {
  store: DeviceStore;
  actions: HubActions;
}

export const DevicesContext = createContext<DevicesContextValue | null>(null);

export function useDevicesContext(): DevicesContextValue {
  const value = useContext(DevicesContext);
  if (!value) throw new Error('useDevicesContext outside the Devices page');
  return value;
}

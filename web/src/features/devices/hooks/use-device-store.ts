import { useCallback, useSyncExternalStore } from 'react';
import type { DeviceStore } from '../store/device-store.js';

/** One tile's device: re-renders only when that device (or its pending, not-responding or failure flag) changes. */
export function useDevice(store: DeviceStore, key: string) {
  const subscribe = useCallback((listener: () => void) => store.subscribeDevice(key, listener), [store, key]);
  const device = useSyncExternalStore(subscribe, () => store.getDevice(key));
  const pending = useSyncExternalStore(subscribe, () => store.isPending(key));
  const notResponding = useSyncExternalStore(subscribe, () => store.isNotResponding(key));
  const failure = useSyncExternalStore(subscribe, () => store.getFailure(key));
  return { device, pending, notResponding, failure };
}

export const useDeviceIds = (store: DeviceStore) => useSyncExternalStore(store.subscribe, store.getIds);
export const useDeviceStats = (store: DeviceStore) => useSyncExternalStore(store.subscribe, store.getStats);
export const useHubStatus = (store: DeviceStore) => useSyncExternalStore(store.subscribe, store.getStatus);
export const useBusOffline = (store: DeviceStore) =>
  useSyncExternalStore(store.subscribe, store.isBusOffline);

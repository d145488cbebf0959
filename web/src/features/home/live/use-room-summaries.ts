import type { Room } from '@hearth/contracts';
import { useEffect, useMemo, useState } from 'react';
import type { DeviceView } from '../../devices/model/device.types.js';
import type { DeviceStore } from '../../devices/store/device-store.js';
import { summariseRooms } from './home-live.model.js';

/**
 * Every device the store lists, re-read whenever any of them changes (the store notifies once per
 * animation frame at most, so this re-renders at most once a frame, whatever the message rate).
 */
export function useListedDevices(store: DeviceStore): DeviceView[] {
  const [version, setVersion] = useState(0);
  useEffect(() => {
    const bump = () => setVersion((value) => value + 1);
    let stops: (() => void)[] = [];
    const follow = () => {
      for (const stop of stops) stop();
      stops = store.getIds().map((key) => store.subscribeDevice(key, bump));
      bump();
    };
    follow();
    const stopList = store.subscribe(follow);
    return () => {
      stopList();
      for (const stop of stops) stop();
    };
  }, [store]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: version marks a change inside the store
  return useMemo(() => store.getIds().flatMap((key) => store.getDevice(key) ?? []), [store, version]);
}

/** docs/screens.md#room-cards: each room's summary, live. */
export function useRoomSummaries(store: DeviceStore, rooms: Room[]) {
  const devices = useListedDevices(store);
  return { devices, summaries: useMemo(() => summariseRooms(devices, rooms), [devices, rooms]) };
}

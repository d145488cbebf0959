import { useCallback, useEffect, useSyncExternalStore } from 'react';
import { FavouritesStore } from './favourites-store.js';
import { RoomFeed } from './room-events.js';
import { fetchFavourites, fetchRooms, saveFavourites } from './rooms.api.js';
import { RoomsStore } from './rooms-store.js';

/** What a page that shows rooms holds: the stream's room events, the rooms and the user's favourites. */
export interface RoomsHub {
  feed: RoomFeed;
  rooms: RoomsStore;
  favourites: FavouritesStore;
  /** Stops following the feed. */
  dispose(): void;
}

/** The stores on the real API; `userId` is read whenever a `favourites.changed` arrives. */
export function createRoomsHub(userId: () => string | null): RoomsHub {
  const feed = new RoomFeed();
  const rooms = new RoomsStore(fetchRooms);
  const favourites = new FavouritesStore({ fetch: fetchFavourites, save: saveFavourites }, userId);
  const stops = [rooms.follow(feed), favourites.follow(feed)];
  return {
    feed,
    rooms,
    favourites,
    dispose: () => {
      for (const stop of stops) stop();
    },
  };
}

/** Rooms and floors, each in its order, live (read on first use). */
export function useRooms(store: RoomsStore) {
  const snapshot = useSyncExternalStore(store.subscribe, store.getSnapshot);
  useEffect(() => {
    void store.load();
  }, [store]);
  return snapshot;
}

/** The user's favourites (in their order), live, and the star's toggle. */
export function useFavourites(store: FavouritesStore) {
  const snapshot = useSyncExternalStore(store.subscribe, store.getSnapshot);
  useEffect(() => {
    void store.load();
  }, [store]);
  const toggle = useCallback((deviceId: string) => store.toggle(deviceId), [store]);
  const isFavourite = useCallback((deviceId: string) => snapshot.ids.includes(deviceId), [snapshot]);
  return { ...snapshot, toggle, isFavourite };
}

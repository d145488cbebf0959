/**
 * A value components read with `useSyncExternalStore(store.subscribe, store.getSnapshot)`: the
 * store replaces the snapshot (never mutates it) with `set`, which tells every listener. The
 * stores of the web app extend it (FavouritesStore, RoomsStore, SelectionStore).
 */
export class SnapshotStore<T> {
  private readonly listeners = new Set<() => void>();

  constructor(protected snapshot: T) {}

  getSnapshot = () => this.snapshot;

  subscribe = (listener: () => void) => {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  };

  protected set(snapshot: T) {
    this.snapshot = snapshot;
    for (const listener of this.listeners) listener();
  }
}

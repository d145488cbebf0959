import type { Favourites } from '@hearth/contracts';
import type { ApiResult } from '../../shared/api/client.js';
import { SnapshotStore } from '../../shared/store/snapshot-store.js';
import type { RoomFeed } from './room-events.js';

export interface FavouritesSnapshot {
  ids: string[];
  loaded: boolean;
  /** The last failed read or save, null when it worked. */
  error: string | null;
}

export interface FavouritesApi {
  fetch(): Promise<ApiResult<Favourites>>;
  save(ids: string[]): Promise<ApiResult<Favourites>>;
}

const EMPTY: FavouritesSnapshot = { ids: [], loaded: false, error: null };

/** The list with the device added at the end, or taken out. */
export function toggled(ids: string[], id: string): string[] {
  return ids.includes(id) ? ids.filter((other) => other !== id) : [...ids, id];
}

/**
 * The list with the device moved `delta` places (−1: one up, +1: one down), kept within the list;
 * the same list when nothing moves.
 */
export function movedBy(ids: string[], id: string, delta: number): string[] {
  const from = ids.indexOf(id);
  const to = Math.max(0, Math.min(ids.length - 1, from + delta));
  if (from < 0 || to === from) return ids;
  const next = ids.filter((other) => other !== id);
  next.splice(to, 0, id);
  return next;
}

/**
 * docs/rooms.md#favourites: the signed-in user's starred devices. A toggle shows at once and is
 * saved with PUT /api/favourites (the server's answer wins; a failure puts the list back). Another
 * browser of the same user changing the list (`favourites.changed` naming this user) or the stream
 * coming back reads it again.
 */
export class FavouritesStore extends SnapshotStore<FavouritesSnapshot> {
  private loading: Promise<void> | null = null;
  private saving = Promise.resolve();
  private generation = 0;

  constructor(
    private readonly api: FavouritesApi,
    private readonly userId: () => string | null,
  ) {
    super(EMPTY);
  }

  follow(feed: RoomFeed) {
    return feed.subscribe((event) => {
      if (event.type === 'resync' && (this.snapshot.loaded || this.loading)) void this.load(true);
      if (event.type === 'favourites.changed' && event.userId === this.userId()) void this.load(true);
    });
  }

  load(force = false): Promise<void> {
    if (this.loading && !force) return this.loading;
    if (this.snapshot.loaded && !force) return Promise.resolve();
    const generation = ++this.generation;
    const loading = this.api.fetch().then((result) => {
      if (this.loading === loading) this.loading = null;
      if (generation !== this.generation) return;
      if (!result.success || !Array.isArray(result.data?.device_ids)) {
        this.set({ ...this.snapshot, error: result.error ?? 'GET failed' });
        return;
      }
      this.set({ ids: result.data.device_ids, loaded: true, error: null });
    });
    this.loading = loading;
    return loading;
  }

  /** Stars or un-stars a device; resolves with the error message, or null once saved. */
  toggle(id: string): Promise<string | null> {
    return this.save(toggled(this.snapshot.ids, id), (ids) => toggled(ids, id));
  }

  /**
   * Moves a favourite `delta` places and saves the new order like a toggle (shown at once, the
   * server's answer wins, a failure moves it back); resolves with the error message or null.
   */
  move(id: string, delta: number): Promise<string | null> {
    const wanted = movedBy(this.snapshot.ids, id, delta);
    if (wanted === this.snapshot.ids) return Promise.resolve(null);
    return this.save(wanted, (ids) => movedBy(ids, id, -delta));
  }

  /**
   * Shows `wanted` at once and saves it after the saves before it; the server's answer wins unless
   * the list changed again meanwhile (that change is saved next and its answer wins), a failure
   * applies `undo` to the list as it is then (later changes stay).
   */
  private save(wanted: string[], undo: (ids: string[]) => string[]): Promise<string | null> {
    const generation = ++this.generation;
    this.set({ ...this.snapshot, ids: wanted });
    const result = this.saving.then(async () => {
      const answer = await this.api.save(this.snapshot.ids);
      if (answer.success && Array.isArray(answer.data?.device_ids)) {
        if (generation === this.generation)
          this.set({ ids: answer.data.device_ids, loaded: true, error: null });
        return null;
      }
      const error = answer.error ?? 'PUT failed';
      this.set({ ...this.snapshot, ids: undo(this.snapshot.ids), error });
      return error;
    });
    this.saving = result.then(() => {});
    return result;
  }

  clear() {
    this.generation++;
    this.loading = null;
    this.set(EMPTY);
  }
}

import type { RoomsResponse } from '@hearth/contracts';
import type { ApiResult } from '../../shared/api/client.js';
import { SnapshotStore } from '../../shared/store/snapshot-store.js';
import type { RoomEvent, RoomFeed } from './room-events.js';
import { applyRoomEvent, sortRooms } from './rooms-state.js';

export interface RoomsSnapshot extends RoomsResponse {
  /** True once GET /api/rooms answered. */
  loaded: boolean;
  /** The last failed read's message, null when it worked. */
  error: string | null;
}

const EMPTY: RoomsSnapshot = { rooms: [], floors: [], loaded: false, error: null };

/**
 * Rooms and floors of docs/rooms.md for every component of a page: read once with
 * GET /api/rooms, then kept live by the stream's room and floor events (read again after a
 * reconnect). Events that arrive while the read is on the wire are applied on top of its answer.
 */
export class RoomsStore extends SnapshotStore<RoomsSnapshot> {
  private loading: Promise<void> | null = null;
  private queued: RoomEvent[] = [];
  private generation = 0;

  constructor(private readonly fetch: () => Promise<ApiResult<RoomsResponse>>) {
    super(EMPTY);
  }

  /** Listens to a feed; returns the unsubscribe. */
  follow(feed: RoomFeed) {
    return feed.subscribe((event) => this.apply(event));
  }

  /** Reads the list unless it is loaded (or being read); `force` reads again anyway. */
  load(force = false): Promise<void> {
    if (this.loading) return this.loading;
    if (this.snapshot.loaded && !force) return Promise.resolve();
    const generation = this.generation;
    this.queued = [];
    this.loading = this.fetch().then((result) => {
      this.loading = null;
      if (generation !== this.generation) return;
      if (!result.success || !Array.isArray(result.data?.rooms) || !Array.isArray(result.data?.floors)) {
        this.set({ ...this.snapshot, error: result.error ?? 'GET failed' });
        return;
      }
      let state = sortRooms(result.data);
      for (const event of this.queued) state = applyRoomEvent(state, event);
      this.queued = [];
      this.set({ ...state, loaded: true, error: null });
    });
    return this.loading;
  }

  apply(event: RoomEvent) {
    if (event.type === 'resync') {
      if (this.snapshot.loaded || this.loading) {
        this.loading = null;
        this.generation++;
        void this.load(true);
      }
      return;
    }
    if (this.loading) this.queued.push(event);
    if (!this.snapshot.loaded) return;
    const next = applyRoomEvent(this.snapshot, event);
    if (next !== this.snapshot) this.set({ ...this.snapshot, ...next });
  }

  /** Signed out or lost the role: forget everything. */
  clear() {
    this.generation++;
    this.loading = null;
    this.queued = [];
    this.set(EMPTY);
  }
}

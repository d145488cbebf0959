import { SnapshotStore } from '../../../shared/store/snapshot-store.js';

export interface SelectionSnapshot {
  /** "Select" mode is on: tiles show a checkbox, the selection bar shows. */
  active: boolean;
  /** Selected device ids, in the order they were picked. */
  ids: readonly string[];
}

const OFF: SelectionSnapshot = { active: false, ids: [] };

/**
 * docs/rooms.md#selection: the tiles picked for "Move to room". Tiles read whether they are
 * selected, the selection bar reads the list; leaving the mode forgets the selection.
 */
export class SelectionStore extends SnapshotStore<SelectionSnapshot> {
  constructor() {
    super(OFF);
  }

  isSelected = (id: string) => this.snapshot.ids.includes(id);

  start() {
    if (!this.snapshot.active) this.set({ active: true, ids: [] });
  }

  /** Leaves the mode (Cancel, Escape, after a move). */
  stop() {
    if (this.snapshot !== OFF) this.set(OFF);
  }

  /** Picks or un-picks a device; picking starts the mode. */
  toggle(id: string) {
    const { ids } = this.snapshot;
    this.set({ active: true, ids: ids.includes(id) ? ids.filter((other) => other !== id) : [...ids, id] });
  }

  /** docs/rooms.md#selection: "Select all shown" adds these (the devices the filter shows) to the selection. */
  add(ids: readonly string[]) {
    const picked = new Set(this.snapshot.ids);
    const added = ids.filter((id) => !picked.has(id));
    if (added.length > 0 || !this.snapshot.active)
      this.set({ active: true, ids: [...this.snapshot.ids, ...added] });
  }

  /** Drops ids the page no longer lists (removed devices). */
  keepOnly(listed: ReadonlySet<string>) {
    const ids = this.snapshot.ids.filter((id) => listed.has(id));
    if (ids.length !== this.snapshot.ids.length) this.set({ ...this.snapshot, ids });
  }
}

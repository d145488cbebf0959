/** The scenes table, added by migration 0023 (docs/automations.md#storage). */
export interface ScenesTable {
  id: string;
  name: string;
  icon: string | null;
  room_id: string | null;
  /** JSON array of {device_id, state}. */
  targets: string;
  created_by: string | null;
  created_at: string;
  updated_at: string;
}

export interface ScenesTables {
  scenes: ScenesTable;
}

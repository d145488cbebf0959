import type { Generated } from 'kysely';

/** Tables of the device hub (the device registry), added by migration 0003. */
export interface DevicesTable {
  /** Stable random UUID: survives restarts and renames. */
  id: string;
  /** The ecosystem's address (Zigbee: IEEE address); unique. */
  external_id: string;
  protocol: string;
  name: string;
  /** JSON: manufacturer, model, type, description, firmware, capabilities, inputs. */
  metadata: string;
  /** JSON: the last state the device reported. */
  state: string;
  last_seen: string | null;
  created_at: string;
  updated_at: string;
  /** When the device left its ecosystem's list (migration 0005); null while it is listed. */
  removed_at: string | null;
  /** The room the device is in (migration 0008, docs/rooms.md#assignment); null when unassigned. */
  room_id: Generated<string | null>;
  /** 1 once someone has assigned it to a room or out of one: its name no longer suggests a room. */
  room_assigned: Generated<number>;
  /** 1 while the device is online as the state writer last saw it (migration 0011). */
  online: Generated<number>;
}

export interface DevicehubTables {
  devicehub_devices: DevicesTable;
}

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
  created_at: string;
  updated_at: string;
  /** When the device left its ecosystem's list (migration 0005); null while it is listed. */
  removed_at: string | null;
  /** The room the device is in (migration 0008, docs/rooms.md#assignment); null when unassigned. */
  room_id: Generated<string | null>;
  /** 1 once someone has assigned it to a room or out of one: its name no longer suggests a room. */
  room_assigned: Generated<number>;
}

/**
 * What the state writer keeps of each device (migration 0029): a row of its own, so that a
 * second's flush of a thousand states rewrites these few columns and not the metadata beside them
 * (about 5 KB a device of real capabilities, which SQLite rewrote with every state).
 */
export interface DeviceStatesTable {
  device_id: string;
  /** JSON: the last state the device reported. */
  state: Generated<string>;
  last_seen: string | null;
  /** 1 while the device is online as the state writer last saw it. */
  online: Generated<number>;
}

export interface DevicehubTables {
  devicehub_devices: DevicesTable;
  devicehub_states: DeviceStatesTable;
}

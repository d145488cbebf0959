/** Tables of the access rules, added by migration 0014 (docs/access.md#storage). */
export interface AccessRoomRulesTable {
  user_id: string;
  room_id: string;
  /** `none`, `view` or `control`. */
  level: string;
  updated_at: string;
}

export interface AccessDeviceRulesTable {
  user_id: string;
  device_id: string;
  level: string;
  updated_at: string;
}

export interface AccessTables {
  access_room_rules: AccessRoomRulesTable;
  access_device_rules: AccessDeviceRulesTable;
}

/** Tables of the alerts domain, added by migration 0020 (docs/alerts.md#storage). */
export interface AlertSettingsTable {
  /** Always 'household': one row. */
  id: string;
  /** JSON: AlertSettings. */
  settings: string;
  updated_at: string;
}

export interface AlertMutesTable {
  device_id: string;
  muted_by: string | null;
  muted_at: string;
}

export interface AlertIncidentsTable {
  id: string;
  /** offline, battery, safety or hub. */
  rule: string;
  /** The device's id, or the hub's part (`bus`, `bridge`). */
  subject: string;
  device_id: string | null;
  /** `rule:subject` while open (unique: one open incident each), null once resolved. */
  open_key: string | null;
  severity: string;
  /** JSON: what the rule saw (the battery level, the alarms tripped, the device's name). */
  detail: string;
  /** Counts the changes people are told of. */
  version: number;
  opened_at: string;
  updated_at: string;
  resolved_at: string | null;
  acknowledged_at: string | null;
  acknowledged_by: string | null;
  /** A critical incident not yet acknowledged: when it is sent again. */
  next_repeat_at: string | null;
}

/** A condition waiting for its time: a device offline since, the bridge away since. */
export interface AlertConditionsTable {
  rule: string;
  subject: string;
  since: string;
}

export interface AlertsTables {
  alert_settings: AlertSettingsTable;
  alert_mutes: AlertMutesTable;
  alert_incidents: AlertIncidentsTable;
  alert_conditions: AlertConditionsTable;
}

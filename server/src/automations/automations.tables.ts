/** Tables of automations, added by migrations 0024 and 0025 (docs/automations.md#storage). */
export interface AutomationsTable {
  id: string;
  name: string;
  /** 0/1 */
  enabled: number;
  mode: string;
  catch_up: string;
  /** JSON arrays of the rule's parts. */
  triggers: string;
  conditions: string;
  actions: string;
  owner_id: string;
  /** ISO-8601 UTC: the next scheduled fire; null: none (no schedule, or disabled). */
  next_run: string | null;
  last_run_at: string | null;
  last_run_status: string | null;
  paused_reason: string | null;
  run_seq: number;
  created_at: string;
  updated_at: string;
}

export interface AutomationSettingsTable {
  name: string;
  /** JSON */
  value: string;
  updated_at: string;
}

/** A claimed scheduled fire: its primary key `(automation_id, fire_at)` lets one claimant win. */
export interface AutomationFiresTable {
  automation_id: string;
  fire_at: string;
  claimed_at: string;
  claimed_by: string;
}

export interface AutomationRunsTable {
  id: string;
  automation_id: string;
  started_at: string;
  finished_at: string | null;
  /** JSON RunTrigger */
  trigger: string;
  status: string;
  /** JSON RunStep[] */
  steps: string;
  position: number;
  resume_at: string | null;
  lease_owner: string | null;
  lease_until: string | null;
  version: number;
  /** 0/1: counts for the loop breaker. */
  counted: number;
}

/** A state trigger's `for`: the condition holds since `since`; the run starts at `due_at`. */
export interface AutomationPendingTable {
  id: string;
  automation_id: string;
  trigger_index: number;
  device_id: string;
  since: string;
  due_at: string;
  description: string;
}

export interface AutomationsTables {
  automations: AutomationsTable;
  automation_settings: AutomationSettingsTable;
  automation_fires: AutomationFiresTable;
  automation_runs: AutomationRunsTable;
  automation_pending: AutomationPendingTable;
}

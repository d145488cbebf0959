/** Wire shapes of automations (docs/automations.md), shared by server and web app. */

import type { DeviceState } from './devicehub.js';

/** ISO weekdays: 1 Monday … 7 Sunday. */
export type IsoWeekday = 1 | 2 | 3 | 4 | 5 | 6 | 7;

export type AutomationTrigger =
  | { type: 'time'; at: string; weekdays?: IsoWeekday[] }
  | { type: 'cron'; expression: string }
  | { type: 'sun'; event: 'sunrise' | 'sunset'; offset_minutes?: number }
  | {
      type: 'state';
      device_id: string;
      property: string;
      to?: unknown;
      from?: unknown;
      above?: number;
      below?: number;
      for_seconds?: number;
    }
  | { type: 'event'; device_id: string; value: string }
  | { type: 'availability'; device_id: string; online: boolean }
  | { type: 'start' };

export type AutomationCondition =
  | { type: 'state'; device_id: string; property: string; equals?: unknown; above?: number; below?: number }
  | { type: 'time'; after?: string; before?: string; weekdays?: IsoWeekday[] }
  | { type: 'sun'; is: 'up' | 'down' };

export type AutomationAction =
  | { type: 'device'; device_id: string; state: DeviceState }
  | { type: 'scene'; scene_id: string }
  | { type: 'wait'; seconds: number }
  | { type: 'notify'; to: 'household' | string[]; title: string; body: string }
  | { type: 'automation'; automation_id: string; enabled: boolean };

export const AUTOMATION_MODES = ['single', 'restart', 'queued'] as const;
export type AutomationMode = (typeof AUTOMATION_MODES)[number];

export const CATCH_UP_MODES = ['skip', 'run_once'] as const;
export type CatchUpMode = (typeof CATCH_UP_MODES)[number];

export const RUN_STATUSES = ['done', 'failed', 'skipped', 'missed', 'stopped'] as const;
/** A run's status; `running`, `waiting` and `queued` while it is not over. */
export type RunStatus = (typeof RUN_STATUSES)[number] | 'running' | 'waiting' | 'queued';

/** An automation as GET /api/automations lists it. */
export interface Automation {
  id: string;
  name: string;
  enabled: boolean;
  mode: AutomationMode;
  catch_up: CatchUpMode;
  triggers: AutomationTrigger[];
  conditions: AutomationCondition[];
  actions: AutomationAction[];
  owner_id: string;
  /** ISO-8601: the next scheduled fire (time, cron and sun triggers), or null. */
  next_run: string | null;
  last_run: { at: string; status: RunStatus } | null;
  /** Why the loop breaker paused it (docs/automations.md#loops), or null. */
  paused_reason: string | null;
}

/** GET /api/automations */
export interface AutomationList {
  automations: Automation[];
  /** Pass as `cursor` for the next page; null when there is no more. */
  next_cursor: string | null;
  /** HOUSEHOLD_TIME_ZONE: times of day are read in it. */
  time_zone: string;
}

/** What started a run, as its trace shows it. */
export interface RunTrigger {
  /** `time`, `cron`, `sun`, `state`, `event`, `availability`, `start`, `manual`. */
  type: string;
  /** What happened in words (e.g. "humidity 74 (above 70) for 300 s"). */
  description: string;
  /** The scheduled fire's instant, for time, cron and sun triggers. */
  fire_at?: string;
}

/** One step of a run's trace: a condition's result or an action's. */
export interface RunStep {
  /** `condition`, `device`, `scene`, `wait`, `notify`, `automation`; `mode`, `loop`, `stop`, `schedule` for what the run itself met. */
  kind: string;
  /** The condition's or action's place in the automation (0-based). */
  index?: number;
  /** ISO-8601: when the step ended. */
  at: string;
  /** `true`/`false` for a condition; `sent`, `waited`, `notified`, … for an action. */
  result: string;
  error?: string;
}

export interface AutomationRun {
  id: string;
  started_at: string;
  finished_at: string | null;
  trigger: RunTrigger;
  status: RunStatus;
  steps: RunStep[];
}

/** GET /api/automations/{id}/runs */
export interface AutomationRuns {
  runs: AutomationRun[];
}

/** GET and PUT /api/automations/location: where sunrise and sunset are computed. */
export interface HouseholdLocation {
  latitude: number | null;
  longitude: number | null;
}

/** Runs of an automation kept in its trace. */
export const AUTOMATION_TRACE_RUNS = 50;
/** Automations per page of GET /api/automations. */
export const AUTOMATION_PAGE_SIZE = 100;
/** The loop breaker: more runs than this within a minute pause the automation. */
export const AUTOMATION_RUNS_PER_MINUTE = 30;
/** Runs waiting behind the running one in `queued` mode. */
export const AUTOMATION_QUEUE_LIMIT = 10;
/** Longest `wait` and `for_seconds`: a day. */
export const AUTOMATION_MAX_WAIT_SECONDS = 86_400;

/** Stream events for open pages (residents and admins only); pages read the automation again. */
export interface AutomationChangedEvent {
  id: string;
  removed: boolean;
}

export interface AutomationRunEvent {
  automation_id: string;
  run_id: string;
  status: RunStatus;
}

export const automationTopics = {
  changed: 'events/automation.changed',
  run: 'events/automation.run',
} as const;

/** Shapes of guest passes (docs/passes.md), shared by server and web app. */
import type { Device } from './devicehub.js';

/** What a pass allows on its devices. */
export const PASS_LEVELS = ['view', 'control'] as const;
export type PassLevel = (typeof PASS_LEVELS)[number];

/** Days of a weekly schedule, Monday first. */
export const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

/**
 * One window of a weekly schedule, in the household's time zone: on these days from `from`
 * (inclusive) to `to` (exclusive), both `HH:MM`; `to` may be `24:00` and is after `from`.
 */
export interface PassWindow {
  days: Weekday[];
  from: string;
  to: string;
}

/**
 * Where a pass stands now: `active` (it works), `scheduled` (not yet started, or outside its
 * weekly hours), `paused`, `expired` (ended, or no window of its schedule is left before its end).
 */
export type PassStatus = 'active' | 'scheduled' | 'paused' | 'expired';

/** A pass as its managers see it (GET /api/passes). */
export interface Pass {
  id: string;
  label: string | null;
  level: PassLevel;
  rooms: string[];
  devices: string[];
  /** ISO-8601 UTC, or null (from its creation). */
  starts_at: string | null;
  /** ISO-8601 UTC, or null (no end: a schedule alone). */
  ends_at: string | null;
  schedule: PassWindow[] | null;
  paused: boolean;
  status: PassStatus;
  /** When a `scheduled` pass next starts working (ISO-8601), else null. */
  next_start: string | null;
  created_at: string;
  created_by: { id: string; label: string };
}

/** POST /api/passes answers this once: `url` holds the token, which is never shown again. */
export interface CreatedPass extends Pass {
  url: string;
}

/** GET /api/passes */
export interface PassList {
  passes: Pass[];
  /** The household's time zone (IANA), the one schedules are read in. */
  time_zone: string;
}

/** POST /api/passes */
export interface CreatePassRequest {
  label?: string;
  rooms?: string[];
  devices?: string[];
  level: PassLevel;
  starts_at?: string;
  ends_at?: string;
  schedule?: PassWindow[];
}

/** GET /api/pass/{token}: what the guest's page shows, whether or not the pass works now. */
export interface PassInfo {
  label: string | null;
  level: PassLevel;
  status: PassStatus;
  starts_at: string | null;
  ends_at: string | null;
  schedule: PassWindow[] | null;
  next_start: string | null;
  time_zone: string;
}

/** A device as a pass's page gets it: the device and what the pass may do with it. */
export type PassDevice = Device & { access: PassLevel };

/** The MQTT user name a pass's page connects to /ws/devicehub with (the token is the password). */
export const PASS_STREAM_USERNAME = 'pass';

export const PASS_LABEL_MAX_LENGTH = 64;
/** Most windows a weekly schedule holds. */
export const PASS_MAX_WINDOWS = 21;
/** Most rooms and devices a pass names (each). */
export const PASS_MAX_ITEMS = 200;
/** A pass that never closes ends at most this many days after its start (docs/passes.md#validity). */
export const PASS_NEVER_CLOSED_MAX_DAYS = 366;

/**
 * Whether a pass with this weekly schedule never closes: no schedule (a plain period), or windows
 * that together cover every day from 00:00 to 24:00.
 */
export function neverCloses(schedule: readonly PassWindow[] | null | undefined): boolean {
  if (!schedule) return true;
  const minutes = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));
  return WEEKDAYS.every((day) => {
    const windows = schedule
      .filter((window) => window.days.includes(day))
      .map((window) => [minutes(window.from), minutes(window.to)] as const)
      .sort((a, b) => a[0] - b[0]);
    let covered = 0;
    for (const [from, to] of windows) {
      if (from > covered) return false;
      covered = Math.max(covered, to);
    }
    return covered >= 24 * 60;
  });
}

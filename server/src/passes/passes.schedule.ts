import { type PassStatus, type PassWindow, WEEKDAYS, type Weekday } from '@hearth/contracts';

/**
 * docs/passes.md#validity: whether a pass works at an instant, read in the household's time zone.
 * Pure: the clock and the zone are arguments.
 */

/** What the status of a pass depends on (times as epoch ms). */
export interface PassTimes {
  startsAt: number | null;
  endsAt: number | null;
  schedule: readonly PassWindow[] | null;
  paused: boolean;
}

export interface PassState {
  status: PassStatus;
  /** When a `scheduled` pass next starts working (epoch ms), else null. */
  nextStart: number | null;
}

interface LocalTime {
  year: number;
  month: number;
  day: number;
  weekday: Weekday;
  /** Minutes since local midnight. */
  minute: number;
  second: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();
const WEEKDAY_OF: Record<string, Weekday> = {
  Mon: 'mon',
  Tue: 'tue',
  Wed: 'wed',
  Thu: 'thu',
  Fri: 'fri',
  Sat: 'sat',
  Sun: 'sun',
};

function formatter(zone: string): Intl.DateTimeFormat {
  let format = formatters.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      weekday: 'short',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(zone, format);
  }
  return format;
}

/** The wall-clock time in `zone` at `at` (epoch ms). */
export function localTime(at: number, zone: string): LocalTime {
  const parts: Record<string, string> = {};
  for (const part of formatter(zone).formatToParts(at)) parts[part.type] = part.value;
  return {
    year: Number(parts.year),
    month: Number(parts.month),
    day: Number(parts.day),
    weekday: WEEKDAY_OF[parts.weekday ?? ''] ?? 'mon',
    minute: (Number(parts.hour) % 24) * 60 + Number(parts.minute),
    second: Number(parts.second),
  };
}

/** `HH:MM` as minutes since midnight (`24:00` is 1440). */
export const minutesOf = (hhmm: string): number => {
  const [h, m] = hhmm.split(':').map(Number);
  return (h ?? 0) * 60 + (m ?? 0);
};

/** How far `zone` is ahead of UTC at `at`, in ms. */
function offsetAt(at: number, zone: string): number {
  const t = localTime(at, zone);
  const wall = Date.UTC(t.year, t.month - 1, t.day, Math.floor(t.minute / 60), t.minute % 60, t.second);
  return wall - Math.floor(at / 1000) * 1000;
}

/** The instant a wall-clock time in `zone` happens (a time skipped by a DST change: just after). */
function instantOf(year: number, month: number, day: number, minute: number, zone: string): number {
  const wall = Date.UTC(year, month - 1, day, 0, minute);
  const first = wall - offsetAt(wall, zone);
  return wall - offsetAt(first, zone);
}

/** Whether the schedule has a window open at `at`. */
export function inWindow(schedule: readonly PassWindow[], at: number, zone: string): boolean {
  const now = localTime(at, zone);
  return schedule.some(
    (window) =>
      window.days.includes(now.weekday) &&
      minutesOf(window.from) <= now.minute &&
      now.minute < minutesOf(window.to),
  );
}

/** The first instant at or after `from` when a window of the schedule is open (within 8 days), or null. */
export function nextWindowStart(schedule: readonly PassWindow[], from: number, zone: string): number | null {
  if (inWindow(schedule, from, zone)) return from;
  const today = localTime(from, zone);
  let best: number | null = null;
  for (let offset = 0; offset <= 8; offset++) {
    const date = new Date(Date.UTC(today.year, today.month - 1, today.day + offset));
    const weekday = WEEKDAYS[(date.getUTCDay() + 6) % 7]!;
    for (const window of schedule) {
      if (!window.days.includes(weekday)) continue;
      const start = instantOf(
        date.getUTCFullYear(),
        date.getUTCMonth() + 1,
        date.getUTCDate(),
        minutesOf(window.from),
        zone,
      );
      if (start >= from && (best === null || start < best)) best = start;
    }
    if (best !== null) return best;
  }
  return best;
}

/**
 * Where the pass stands at `now`: an ended pass is `expired` (paused or not), then `paused`, then
 * `scheduled` before its start or outside its weekly windows, else `active`.
 */
export function passState(pass: PassTimes, now: number, zone: string): PassState {
  if (pass.endsAt !== null && now >= pass.endsAt) return { status: 'expired', nextStart: null };
  if (pass.paused) return { status: 'paused', nextStart: null };
  const from = pass.startsAt !== null && now < pass.startsAt ? pass.startsAt : now;
  const next = pass.schedule ? nextWindowStart(pass.schedule, from, zone) : from;
  if (next === null || (pass.endsAt !== null && next >= pass.endsAt)) {
    return { status: 'expired', nextStart: null };
  }
  if (next <= now) return { status: 'active', nextStart: null };
  return { status: 'scheduled', nextStart: next };
}

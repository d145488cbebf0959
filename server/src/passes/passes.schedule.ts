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

/** A time a schedule is open: from `start` (inclusive) to `end` (exclusive), epoch ms. */
export interface Opening {
  start: number;
  end: number;
}

/** A local date (the month from 1). */
interface LocalDate {
  year: number;
  month: number;
  day: number;
}

/** One local day in a zone: when it begins, when the next begins, and whether its UTC offset holds throughout. */
interface LocalDay {
  date: LocalDate;
  weekday: Weekday;
  start: number;
  end: number;
  steady: boolean;
  /** On a day whose clock changes: its windows' openings, by `from-to`, as found. */
  openings: Map<string, Opening>;
}

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;

const shifted = (date: LocalDate, days: number): LocalDate => {
  const moved = new Date(Date.UTC(date.year, date.month - 1, date.day + days));
  return { year: moved.getUTCFullYear(), month: moved.getUTCMonth() + 1, day: moved.getUTCDate() };
};

/**
 * The first instant at which the clock in `zone` shows `minute` (0–1440) of `date`, or later: the
 * time itself; its first occurrence when the clock goes back over it; the jump when the clock
 * skips it. Assumes at most one change of offset within a day of it (true of every zone today).
 */
function firstReaching(date: LocalDate, minute: number, zone: string): number {
  const wall = Date.UTC(date.year, date.month - 1, date.day, 0, minute);
  const before = offsetAt(wall - DAY_MS, zone);
  const after = offsetAt(wall + DAY_MS, zone);
  if (before === after) return wall - before;
  const candidates = [wall - before, wall - after].sort((a, b) => a - b);
  for (const at of candidates) if (offsetAt(at, zone) === wall - at) return at;
  // Skipped: the clock shows less than `wall` at `low` and more at `high`; the jump lies between.
  let [low, high] = candidates as [number, number];
  while (high - low > 1000) {
    const middle = low + Math.floor((high - low) / 2000) * 1000;
    if (middle + offsetAt(middle, zone) < wall) low = middle;
    else high = middle;
  }
  return high;
}

/** Days are read again for every look-up of every pass connection (each second): kept for a while. */
const days = new Map<string, LocalDay>();
const MAX_DAYS_KEPT = 4096;

function localDay(date: LocalDate, zone: string): LocalDay {
  const key = `${zone}|${date.year}-${date.month}-${date.day}`;
  let day = days.get(key);
  if (!day) {
    const start = firstReaching(date, 0, zone);
    const end = firstReaching(date, 24 * 60, zone);
    const weekday = WEEKDAYS[(new Date(Date.UTC(date.year, date.month - 1, date.day)).getUTCDay() + 6) % 7]!;
    const steady = end - start === DAY_MS && offsetAt(start, zone) === offsetAt(end - 1000, zone);
    day = { date, weekday, start, end, steady, openings: new Map() };
    if (days.size >= MAX_DAYS_KEPT) days.clear();
    days.set(key, day);
  }
  return day;
}

/**
 * When a window is open on a local day (docs/passes.md#validity): from the first instant the clock
 * shows `from` until the clock next shows `to`. A clock that jumps over `from` opens it at the jump;
 * one that jumps over the whole window opens it at the jump for the window's length; a clock going
 * back over a time neither closes the window nor opens it again.
 */
function openingOn(day: LocalDay, window: PassWindow, zone: string): Opening {
  const from = minutesOf(window.from);
  const to = minutesOf(window.to);
  if (day.steady) return { start: day.start + from * MINUTE_MS, end: day.start + to * MINUTE_MS };
  const key = `${window.from}-${window.to}`;
  let opening = day.openings.get(key);
  if (!opening) {
    const start = firstReaching(day.date, from, zone);
    const end = firstReaching(day.date, to, zone);
    opening = { start, end: end > start ? end : start + (to - from) * MINUTE_MS };
    day.openings.set(key, opening);
  }
  return opening;
}

/**
 * The times the schedule is open that end after `from` and begin before `until`, in order, those
 * that overlap or touch merged into one.
 */
export function openings(
  schedule: readonly PassWindow[],
  from: number,
  until: number,
  zone: string,
): Opening[] {
  const found: Opening[] = [];
  const first = localTime(from, zone);
  // From the day before: a window opened at a jump for its length may run past its day's end.
  for (let date = shifted(first, -1); ; date = shifted(date, 1)) {
    const day = localDay(date, zone);
    if (day.start >= until) break;
    for (const window of schedule) {
      if (!window.days.includes(day.weekday)) continue;
      const opening = openingOn(day, window, zone);
      if (opening.end > from && opening.start < until) found.push(opening);
    }
  }
  found.sort((a, b) => a.start - b.start);
  const merged: Opening[] = [];
  for (const opening of found) {
    const last = merged[merged.length - 1];
    if (last && opening.start <= last.end) last.end = Math.max(last.end, opening.end);
    else merged.push({ ...opening });
  }
  return merged;
}

/** Whether the schedule has a window open at `at`. */
export function inWindow(schedule: readonly PassWindow[], at: number, zone: string): boolean {
  return openings(schedule, at, at + 1, zone).length > 0;
}

/** The first instant at or after `from` when a window of the schedule is open (within 8 days), or null. */
export function nextWindowStart(schedule: readonly PassWindow[], from: number, zone: string): number | null {
  const next = openings(schedule, from, from + 8 * DAY_MS, zone)[0];
  return next === undefined ? null : Math.max(next.start, from);
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

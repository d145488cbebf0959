import type { AutomationTrigger, IsoWeekday } from '@hearth/contracts';
import { Cron } from 'croner';
import { getPosition, getTimes } from 'suncalc';

/**
 * docs/automations.md#schedule: when a time, cron or sun trigger next fires, as a UTC instant,
 * from the rule and the household's zone. Pure: the instant and the zone are arguments.
 *
 * croner finds the next wall-clock time a pattern matches (evaluated in UTC, so "wall time" is
 * plain arithmetic); this module maps wall times to instants by cron(8)'s rule for clock changes:
 * a fixed-time job (its minute and hour fields name times, as a time trigger does) runs once at a
 * time the clock skips, right after the jump, and once in the repeated hour (its first pass); a
 * job whose minute or hour field is a wildcard runs "normally": at each instant the clock shows a
 * matching time (none in the skipped hour, both passes of the repeated one).
 */

const SECOND_MS = 1000;
const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;
/** cron(8) treats changes of less than three hours as clock changes; no zone moves more. */
const LOOKBACK_MS = 3 * HOUR_MS;
/** How far ahead a next fire is looked for: a pattern that matches nothing within it never fires. */
const HORIZON_MS = 5 * 366 * DAY_MS;
/** Sunrise and sunset altitude (suncalc's): the sun is up above it. */
const SUN_HORIZON_DEGREES = -0.833;

export interface Location {
  latitude: number;
  longitude: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(zone: string): Intl.DateTimeFormat {
  let format = formatters.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
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

/** What the clock in `zone` shows at `at`, as epoch ms of that reading taken as UTC (whole seconds). */
export function wallOf(at: number, zone: string): number {
  const parts: Record<string, number> = {};
  for (const part of formatter(zone).formatToParts(Math.floor(at / SECOND_MS) * SECOND_MS)) {
    if (part.type !== 'literal') parts[part.type] = Number(part.value);
  }
  return Date.UTC(
    parts.year ?? 1970,
    (parts.month ?? 1) - 1,
    parts.day ?? 1,
    (parts.hour ?? 0) % 24,
    parts.minute ?? 0,
    parts.second ?? 0,
  );
}

/** How far `zone` is ahead of UTC at `at`. */
const offsetAt = (at: number, zone: string) => wallOf(at, zone) - Math.floor(at / SECOND_MS) * SECOND_MS;

/** Every instant at which the clock in `zone` shows `wall`: none (skipped), one, or two (repeated). */
export function instantsOf(wall: number, zone: string): number[] {
  const before = offsetAt(wall - DAY_MS, zone);
  const after = offsetAt(wall + DAY_MS, zone);
  const candidates = before === after ? [wall - before] : [wall - before, wall - after];
  return [...new Set(candidates)].filter((at) => wallOf(at, zone) === wall).sort((a, b) => a - b);
}

/**
 * The first instant at which the clock in `zone` shows `wall` or later: the time itself, its first
 * pass when the clock goes back over it, the jump when the clock skips it.
 */
export function firstReaching(wall: number, zone: string): number {
  const found = instantsOf(wall, zone)[0];
  if (found !== undefined) return found;
  // Skipped: the clock shows less than `wall` at `low` and more at `high`; the jump lies between.
  let low = wall - offsetAt(wall - DAY_MS, zone);
  let high = wall - offsetAt(wall + DAY_MS, zone);
  if (low > high) [low, high] = [high, low];
  while (high - low > SECOND_MS) {
    const middle = low + Math.floor((high - low) / (2 * SECOND_MS)) * SECOND_MS;
    if (wallOf(middle, zone) < wall) low = middle;
    else high = middle;
  }
  return high;
}

/** A cron pattern of 5 or 6 fields, checked: the fields, and the pattern croner reads. */
export interface CronRule {
  cron: Cron;
  /** cron(8): a job whose minute or hour field starts with `*` is scheduled normally at clock changes. */
  wild: boolean;
}

/** Why a cron expression is refused, or undefined when it is fine. */
export type CronProblem = 'fields' | 'syntax' | 'never' | 'too-often';

const CRON_CACHE = new Map<string, CronRule>();

/** A cron expression read (5 fields, or 6 with seconds first); throws a CronProblem. */
export function cronRule(expression: string): CronRule {
  const cached = CRON_CACHE.get(expression);
  if (cached) return cached;
  const fields = expression.trim().split(/\s+/);
  if (fields.length !== 5 && fields.length !== 6) throw 'fields' satisfies CronProblem;
  let cron: Cron;
  try {
    cron = new Cron(fields.join(' '), { timezone: 'Etc/UTC', paused: true });
  } catch {
    throw 'syntax' satisfies CronProblem;
  }
  const [minute, hour] = fields.length === 6 ? fields.slice(1) : fields;
  const rule = { cron, wild: (minute ?? '').startsWith('*') || (hour ?? '').startsWith('*') };
  if (CRON_CACHE.size > 10_000) CRON_CACHE.clear();
  CRON_CACHE.set(expression, rule);
  return rule;
}

/** What is wrong with a cron expression at `now` (it never fires, or fires less than 1 s apart). */
export function cronProblem(expression: string, now: number): CronProblem | undefined {
  let rule: CronRule;
  try {
    rule = cronRule(expression);
  } catch (problem) {
    return problem as CronProblem;
  }
  const runs = rule.cron.nextRuns(3, new Date(now));
  if (runs.length === 0) return 'never';
  for (let i = 1; i < runs.length; i++) {
    if ((runs[i] as Date).getTime() - (runs[i - 1] as Date).getTime() < SECOND_MS) return 'too-often';
  }
  return undefined;
}

/** `HH:MM` or `HH:MM:SS` and ISO weekdays as a cron pattern of 6 fields (a fixed-time job). */
export function timePattern(at: string, weekdays?: readonly IsoWeekday[]): string {
  const [h, m, s] = at.split(':').map(Number);
  const days =
    weekdays && weekdays.length > 0 && weekdays.length < 7 ? [...new Set(weekdays)].map((d) => d % 7) : [];
  return `${s ?? 0} ${m ?? 0} ${h ?? 0} * * ${days.length > 0 ? days.sort().join(',') : '*'}`;
}

/** The first instant after `after` at which the rule fires, in `zone`; null: never (within five years). */
export function nextCronFire(rule: CronRule, after: number, zone: string): number | null {
  const steady = offsetAt(after - DAY_MS, zone) === offsetAt(after + DAY_MS, zone);
  // Near a clock change, a wall time before `after`'s may still be ahead of it (the repeated hour).
  let wall = wallOf(after, zone) - (steady ? 0 : LOOKBACK_MS) - SECOND_MS;
  const end = wall + HORIZON_MS;
  let best: number | null = null;
  for (;;) {
    const next = rule.cron.nextRun(new Date(wall));
    if (!next) return best;
    wall = next.getTime();
    if (wall > end) return best;
    if (best !== null && wall > wallOf(best, zone) + LOOKBACK_MS) return best;
    const instants = rule.wild ? instantsOf(wall, zone) : [firstReaching(wall, zone)];
    for (const at of instants) if (at > after && (best === null || at < best)) best = at;
    if (best !== null && steady) return best;
  }
}

/** The first sunrise or sunset (with its offset) after `after`; null when the sun neither rises nor sets for a year. */
export function nextSunFire(
  event: 'sunrise' | 'sunset',
  offsetMinutes: number,
  after: number,
  location: Location,
): number | null {
  const offset = offsetMinutes * 60_000;
  // Solar days in order from the day before (an offset may carry an event past midnight).
  for (let day = -1; day < 370; day++) {
    const at = getTimes(new Date(after + day * DAY_MS), location.latitude, location.longitude)[event];
    if (at && at.getTime() + offset > after)
      return Math.ceil((at.getTime() + offset) / SECOND_MS) * SECOND_MS;
  }
  return null;
}

/** Whether the sun is up at `at`: above the altitude sunrise and sunset are computed for. */
export const sunIsUp = (at: number, location: Location): boolean =>
  getPosition(new Date(at), location.latitude, location.longitude).altitude > SUN_HORIZON_DEGREES;

/** A trigger that fires on a schedule (time, cron, sun), or undefined for the others. */
export function nextFire(
  trigger: AutomationTrigger,
  after: number,
  zone: string,
  location: Location | null,
): number | null | undefined {
  switch (trigger.type) {
    case 'time':
      return nextCronFire(cronRule(timePattern(trigger.at, trigger.weekdays)), after, zone);
    case 'cron':
      return nextCronFire(cronRule(trigger.expression), after, zone);
    case 'sun':
      return location ? nextSunFire(trigger.event, trigger.offset_minutes ?? 0, after, location) : null;
    default:
      return undefined;
  }
}

/** The earliest next fire of an automation's scheduled triggers after `after`, or null. */
export function nextRunOf(
  triggers: readonly AutomationTrigger[],
  after: number,
  zone: string,
  location: Location | null,
): number | null {
  let best: number | null = null;
  for (const trigger of triggers) {
    const at = nextFire(trigger, after, zone, location);
    if (typeof at === 'number' && (best === null || at < best)) best = at;
  }
  return best;
}

export const isScheduled = (trigger: AutomationTrigger) =>
  trigger.type === 'time' || trigger.type === 'cron' || trigger.type === 'sun';

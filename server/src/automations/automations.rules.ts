import type { AutomationCondition, AutomationTrigger, Device, IsoWeekday, RunStep } from '@hearth/contracts';
import { nowIso } from '../storage/columns.js';
import { AUTOMATIONS_ERRORS as E } from './automations.errors.js';
import { type Location, sunIsUp, wallOf } from './automations.schedule.js';

/** What conditions read: the time, the household's zone and location, and devices as they are. */
export interface RuleContext {
  now: number;
  zone: string;
  location: Location | null;
  device(id: string): Device | undefined;
}

type StateTrigger = Extract<AutomationTrigger, { type: 'state' }>;

/** Equal as a person means it: the same value, or the same text (`true` and "true", 70 and "70"). */
export function valuesEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === undefined || b === undefined || a === null || b === null) return false;
  if (typeof a !== 'object' && typeof b !== 'object')
    return String(a).toLowerCase() === String(b).toLowerCase();
  return JSON.stringify(a) === JSON.stringify(b);
}

const numberOf = (value: unknown): number | undefined => {
  const number =
    typeof value === 'number'
      ? value
      : typeof value === 'string' && value.trim() !== ''
        ? Number(value)
        : Number.NaN;
  return Number.isFinite(number) ? number : undefined;
};

/** Whether a value is where a state trigger wants it (its `to`, `above` and `below`). */
export function stateHolds(trigger: Pick<StateTrigger, 'to' | 'above' | 'below'>, value: unknown): boolean {
  if (value === undefined) return false;
  if (trigger.to !== undefined && !valuesEqual(value, trigger.to)) return false;
  if (trigger.above !== undefined || trigger.below !== undefined) {
    const number = numberOf(value);
    if (number === undefined) return false;
    if (trigger.above !== undefined && !(number > trigger.above)) return false;
    if (trigger.below !== undefined && !(number < trigger.below)) return false;
  }
  return true;
}

/**
 * docs/automations.md#triggers: whether a property going from `before` to `after` trips a state
 * trigger: it changed, came from `from` (if given), and arrived where `to`/`above`/`below` want
 * it from somewhere they did not.
 */
export function stateTrips(trigger: StateTrigger, before: unknown, after: unknown): boolean {
  if (after === undefined || valuesEqual(before, after)) return false;
  if (trigger.from !== undefined && !valuesEqual(before, trigger.from)) return false;
  const bounded = trigger.to !== undefined || trigger.above !== undefined || trigger.below !== undefined;
  if (!bounded) return true;
  return stateHolds(trigger, after) && !stateHolds(trigger, before);
}

const show = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));

/** A state trigger's trip in words: "Bathroom sensor humidity 74 (above 70)". */
export function describeState(
  trigger: StateTrigger,
  device: Device | undefined,
  value: unknown,
  held?: number,
): string {
  const bounds = [
    trigger.to !== undefined ? `to ${show(trigger.to)}` : '',
    trigger.above !== undefined ? `above ${trigger.above}` : '',
    trigger.below !== undefined ? `below ${trigger.below}` : '',
  ].filter(Boolean);
  const name = device?.name ?? trigger.device_id;
  return `${name} ${trigger.property} ${show(value)}${bounds.length ? ` (${bounds.join(', ')})` : ''}${held ? ` for ${held} s` : ''}`;
}

/** Seconds since local midnight and the ISO weekday at `now` in `zone`. */
function localClock(now: number, zone: string): { seconds: number; weekday: IsoWeekday } {
  const wall = wallOf(now, zone);
  const date = new Date(wall);
  const day = date.getUTCDay();
  return {
    seconds: date.getUTCHours() * 3600 + date.getUTCMinutes() * 60 + date.getUTCSeconds(),
    weekday: (day === 0 ? 7 : day) as IsoWeekday,
  };
}

const secondsOf = (hhmmss: string) => {
  const [h, m, s] = hhmmss.split(':').map(Number);
  return (h ?? 0) * 3600 + (m ?? 0) * 60 + (s ?? 0);
};

/** A time window (`after` inclusive, `before` exclusive; wrapping midnight when after > before) and weekdays. */
export function inTimeWindow(
  condition: Extract<AutomationCondition, { type: 'time' }>,
  now: number,
  zone: string,
): boolean {
  const { seconds, weekday } = localClock(now, zone);
  if (condition.weekdays && !condition.weekdays.includes(weekday)) return false;
  const after = condition.after === undefined ? undefined : secondsOf(condition.after);
  const before = condition.before === undefined ? undefined : secondsOf(condition.before);
  if (after !== undefined && before !== undefined)
    return after <= before ? seconds >= after && seconds < before : seconds >= after || seconds < before;
  if (after !== undefined) return seconds >= after;
  if (before !== undefined) return seconds < before;
  return true;
}

/** One condition: its result, and why it could not be read (a removed device, no location). */
function evaluate(condition: AutomationCondition, context: RuleContext): { result: boolean; error?: string } {
  switch (condition.type) {
    case 'state': {
      const device = context.device(condition.device_id);
      if (!device) return { result: false, error: E.deviceRemoved };
      const value = device.state[condition.property];
      if (condition.equals !== undefined && !valuesEqual(value, condition.equals)) return { result: false };
      return { result: stateHolds({ above: condition.above, below: condition.below }, value) };
    }
    case 'time':
      return { result: inTimeWindow(condition, context.now, context.zone) };
    case 'sun':
      if (!context.location) return { result: false, error: E.noLocation };
      return { result: sunIsUp(context.now, context.location) === (condition.is === 'up') };
  }
}

/** All conditions, in order, as steps of the trace; they stop at the first that does not hold. */
export function evaluateConditions(
  conditions: readonly AutomationCondition[],
  context: RuleContext,
): { passed: boolean; steps: RunStep[] } {
  const steps: RunStep[] = [];
  const at = nowIso(context.now);
  for (const [index, condition] of conditions.entries()) {
    const { result, error } = evaluate(condition, context);
    steps.push({ kind: 'condition', index, at, result: String(result), ...(error ? { error } : {}) });
    if (!result) return { passed: false, steps };
  }
  return { passed: true, steps };
}

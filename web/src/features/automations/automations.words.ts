import type {
  AutomationAction,
  AutomationCondition,
  AutomationTrigger,
  DeviceState,
} from '@hearth/contracts';
import { WEEKDAY_NAMES } from './automations.messages.js';

/** What the words need to name things: devices, scenes, automations and people by id. */
export interface Names {
  device(id: string): string;
  scene(id: string): string;
  automation(id: string): string;
  person(id: string): string;
}

/** A number of seconds as people say it: "30 s", "2 min", "1 h 30 min". */
export function duration(seconds: number): string {
  if (seconds < 60) return `${seconds} s`;
  if (seconds % 60 !== 0) return `${Math.floor(seconds / 60)} min ${seconds % 60} s`;
  const minutes = seconds / 60;
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  return minutes % 60 === 0 ? `${hours} h` : `${hours} h ${minutes % 60} min`;
}

/** Weekdays 1–7 as "Mon, Tue" ("every day" when all or none; "weekdays", "weekends"). */
export function days(weekdays: readonly number[] | undefined): string {
  const list = [...new Set(weekdays ?? [])].sort();
  if (list.length === 0 || list.length === 7) return 'every day';
  if (list.join() === '1,2,3,4,5') return 'on weekdays';
  if (list.join() === '6,7') return 'at weekends';
  return `on ${list.map((day) => WEEKDAY_NAMES[day - 1]).join(', ')}`;
}

const show = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));

/** A value of a command's state in words: on/off, brightness in %, the rest as it is. */
function valueWords(key: string, value: unknown): string {
  if (key === 'on' || key === 'state' || key.startsWith('state_')) {
    const on = value === true || String(value).toUpperCase() === 'ON';
    const off = value === false || String(value).toUpperCase() === 'OFF';
    if (on || off) return on ? 'on' : 'off';
  }
  if (key === 'brightness' && typeof value === 'number') return `${Math.round((value / 254) * 100)} %`;
  if (key === 'color' && typeof value === 'string') return `colour ${value}`;
  return `${key.replaceAll('_', ' ')} ${show(value)}`;
}

/** "on, 40 %": what a device action sets (power first, `on` and `state` said once). */
export function stateWords(state: DeviceState): string {
  const entries = Object.entries(state);
  const power = entries.find(([key]) => key === 'on') ?? entries.find(([key]) => key === 'state');
  const rest = entries.filter(([key]) => key !== 'on' && key !== 'state');
  return [
    ...(power ? [valueWords(power[0], power[1])] : []),
    ...rest.map(([key, value]) => valueWords(key, value)),
  ].join(', ');
}

export function triggerWords(trigger: AutomationTrigger, names: Names): string {
  switch (trigger.type) {
    case 'time':
      return `it is ${trigger.at} ${days(trigger.weekdays)}`;
    case 'cron':
      return `the schedule “${trigger.expression}” says so`;
    case 'sun': {
      const offset = trigger.offset_minutes ?? 0;
      if (offset === 0) return `it is ${trigger.event}`;
      return `it is ${duration(Math.abs(offset) * 60)} ${offset < 0 ? 'before' : 'after'} ${trigger.event}`;
    }
    case 'state': {
      const what = `the ${names.device(trigger.device_id)} ${trigger.property.replaceAll('_', ' ')}`;
      const from = trigger.from !== undefined ? ` from ${show(trigger.from)}` : '';
      const held = trigger.for_seconds ? ` for ${duration(trigger.for_seconds)}` : '';
      if (trigger.to !== undefined) return `${what} becomes ${show(trigger.to)}${from}${held}`;
      if (trigger.above !== undefined && trigger.below !== undefined)
        return `${what} is between ${trigger.above} and ${trigger.below}${held}`;
      if (trigger.above !== undefined) return `${what} rises above ${trigger.above}${held}`;
      if (trigger.below !== undefined) return `${what} falls below ${trigger.below}${held}`;
      return `${what} changes${from}${held}`;
    }
    case 'event':
      return `the ${names.device(trigger.device_id)} sends ${trigger.value}`;
    case 'availability':
      return `the ${names.device(trigger.device_id)} ${trigger.online ? 'comes back online' : 'goes offline'}`;
    case 'start':
      return 'Hearth starts';
  }
}

export function conditionWords(condition: AutomationCondition, names: Names): string {
  switch (condition.type) {
    case 'state': {
      const what = `the ${names.device(condition.device_id)} ${condition.property.replaceAll('_', ' ')}`;
      const parts = [
        condition.equals !== undefined ? `is ${show(condition.equals)}` : '',
        condition.above !== undefined ? `is above ${condition.above}` : '',
        condition.below !== undefined ? `is below ${condition.below}` : '',
      ].filter(Boolean);
      return `${what} ${parts.join(' and ')}`;
    }
    case 'time': {
      const window =
        condition.after && condition.before
          ? `it is between ${condition.after} and ${condition.before}`
          : condition.after
            ? `it is after ${condition.after}`
            : condition.before
              ? `it is before ${condition.before}`
              : '';
      const when = condition.weekdays ? days(condition.weekdays).replace(/^every day$/, '') : '';
      if (!window) return `it is ${when.replace(/^on |^at /, '')}`.trim();
      return `${window}${when ? ` ${when}` : ''}`;
    }
    case 'sun':
      return `the sun is ${condition.is}`;
  }
}

export function actionWords(action: AutomationAction, names: Names): string {
  switch (action.type) {
    case 'device':
      return `set the ${names.device(action.device_id)} to ${stateWords(action.state)}`;
    case 'scene':
      return `apply the scene ${names.scene(action.scene_id)}`;
    case 'wait':
      return `wait ${duration(action.seconds)}`;
    case 'notify':
      return `tell ${action.to === 'household' ? 'everyone' : action.to.map((id) => names.person(id)).join(', ')}: “${action.title}”`;
    case 'automation':
      return `switch ${action.enabled ? 'on' : 'off'} ${names.automation(action.automation_id)}`;
  }
}

/** The whole rule in one sentence: "When … — If … — Then …, …". */
export function ruleWords(
  rule: { triggers: AutomationTrigger[]; conditions: AutomationCondition[]; actions: AutomationAction[] },
  names: Names,
): string {
  const when = `When ${rule.triggers.map((each) => triggerWords(each, names)).join(', or ')}`;
  const condition =
    rule.conditions.length > 0
      ? ` — If ${rule.conditions.map((each) => conditionWords(each, names)).join(', and ')}`
      : '';
  const then = ` — Then ${rule.actions.map((each) => actionWords(each, names)).join(', ')}`;
  return `${when}${condition}${then}`;
}

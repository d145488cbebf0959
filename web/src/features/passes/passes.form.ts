import {
  type CreatePassRequest,
  neverCloses,
  PASS_NEVER_CLOSED_MAX_DAYS,
  type PassLevel,
  type PassWindow,
  type Weekday,
} from '@hearth/contracts';
import { fromLocalInput } from './passes.format.js';
import { PASSES_MESSAGES as M } from './passes.messages.js';

export interface WindowDraft {
  days: Weekday[];
  from: string;
  to: string;
}

/** The New pass dialog's fields, as typed. */
export interface PassDraft {
  label: string;
  rooms: string[];
  devices: string[];
  level: PassLevel;
  when: 'period' | 'weekly';
  /** `datetime-local` values in the browser's zone ('' when empty). */
  startsAt: string;
  endsAt: string;
  windows: WindowDraft[];
}

export const newWindow = (): WindowDraft => ({ days: [], from: '09:00', to: '13:00' });

const DAY_MS = 86_400_000;

/** The windows as the server takes them: a window ending at 00:00 ends at midnight (`24:00`). */
const scheduleOf = (windows: readonly WindowDraft[]): PassWindow[] =>
  windows.map((window) => ({
    days: window.days,
    from: window.from,
    to: window.to === '00:00' ? '24:00' : window.to,
  }));

/** Whether the windows cover every day from midnight to midnight: the pass would never close. */
export const coversWholeWeek = (windows: readonly WindowDraft[]): boolean =>
  windows.length > 0 && neverCloses(scheduleOf(windows));

/** The request the dialog sends, or the first thing to fix (the server checks the rest). */
export function passRequest(
  draft: PassDraft,
  now = Date.now(),
): { request: CreatePassRequest } | { error: string } {
  if (draft.rooms.length + draft.devices.length === 0) return { error: M.chooseSomething };
  const label = draft.label.trim();
  const startsAt = fromLocalInput(draft.startsAt);
  const endsAt = fromLocalInput(draft.endsAt);
  const request: CreatePassRequest = {
    level: draft.level,
    ...(label ? { label } : {}),
    ...(draft.rooms.length ? { rooms: draft.rooms } : {}),
    ...(draft.devices.length ? { devices: draft.devices } : {}),
    ...(startsAt ? { starts_at: startsAt } : {}),
    ...(endsAt ? { ends_at: endsAt } : {}),
  };
  // docs/passes.md#validity: a pass that never closes ends within a year of its start.
  const withinYear =
    endsAt !== undefined &&
    Date.parse(endsAt) - Math.max(now, startsAt ? Date.parse(startsAt) : now) <=
      PASS_NEVER_CLOSED_MAX_DAYS * DAY_MS;
  if (draft.when === 'period') {
    if (!endsAt) return { error: M.chooseEnd };
    if (!withinYear) return { error: M.endWithinYear };
    return { request };
  }
  if (draft.windows.length === 0 || draft.windows.some((window) => window.days.length === 0))
    return { error: M.chooseDays };
  if (coversWholeWeek(draft.windows) && !withinYear) return { error: M.endWithinYear };
  return { request: { ...request, schedule: scheduleOf(draft.windows) } };
}

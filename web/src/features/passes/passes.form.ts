import type { CreatePassRequest, PassLevel, Weekday } from '@hearth/contracts';
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

/** The request the dialog sends, or the first thing to fix (the server checks the rest). */
export function passRequest(draft: PassDraft): { request: CreatePassRequest } | { error: string } {
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
  if (draft.when === 'period') {
    if (!endsAt) return { error: M.chooseEnd };
    return { request };
  }
  if (draft.windows.length === 0 || draft.windows.some((window) => window.days.length === 0))
    return { error: M.chooseDays };
  return {
    request: {
      ...request,
      // A window ending at 00:00 ends at midnight, the end of its day (the server's `24:00`).
      schedule: draft.windows.map((window) => ({
        days: window.days,
        from: window.from,
        to: window.to === '00:00' ? '24:00' : window.to,
      })),
    },
  };
}

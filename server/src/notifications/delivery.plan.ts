import type { QuietHours } from '@hearth/contracts';
import { quietUntil } from './quiet-hours.js';

/** What a due notification's sender knows of it. */
export interface PlanInput {
  now: number;
  zone: string;
  /** The notice's version, and the one last sent to this person (0: none yet). */
  version: number;
  sentVersion: number;
  /** When the last one was sent (epoch ms), if any. */
  sentAt: number | null;
  /** An open critical incident: goes through quiet hours. */
  critical: boolean;
  resolved: boolean;
  windowMinutes: number;
  quietHours: QuietHours | null;
}

export type Plan =
  /** Nothing new for this person, or an incident that opened and cleared before anyone was told. */
  | { action: 'skip' }
  /** Not now: quiet hours, or the last one went less than the window ago. */
  | { action: 'later'; at: number }
  | { action: 'send' };

/**
 * docs/alerts.md#delivery: when one person's notification goes out. Critical ones go at once;
 * others wait for the end of quiet hours; after the first, at most one per window (a flapping
 * device), and what is sent then is the incident as it is by then.
 */
export function planDelivery(input: PlanInput): Plan {
  if (input.version <= input.sentVersion) return { action: 'skip' };
  if (input.sentVersion === 0 && input.resolved) return { action: 'skip' };
  if (!input.critical) {
    const quietEnd = quietUntil(input.quietHours, input.now, input.zone);
    if (quietEnd !== null) return { action: 'later', at: quietEnd };
  }
  if (input.sentAt !== null && input.sentVersion > 0) {
    const next = input.sentAt + Math.max(1, input.windowMinutes) * 60_000;
    if (next > input.now) return { action: 'later', at: next };
  }
  return { action: 'send' };
}

import type { AlertSettings } from '@hearth/contracts';
import { z } from 'zod';
import { ALERTS_ERRORS as E } from './alerts.errors.js';

const whole = (min: number, max: number, error: string) =>
  z.number({ error }).int({ error }).min(min, { error }).max(max, { error });

/** PUT /api/alerts/settings */
export const settingsBody = z.object({
  offline_after_minutes: z.union([whole(0, 1440, E.offlineAfter), z.null()], { error: E.offlineAfter }),
  battery_below: z.union([whole(1, 90, E.batteryBelow), z.null()], { error: E.batteryBelow }),
  safety: z.boolean({ error: E.flag('safety') }),
  hub: z.boolean({ error: E.flag('hub') }),
  repeat_critical_minutes: whole(1, 1440, E.repeat),
}) satisfies z.ZodType<AlertSettings, unknown>;

/** PUT /api/alerts/devices/{id} */
export const muteBody = z.object({ muted: z.boolean({ error: E.flag('muted') }) });

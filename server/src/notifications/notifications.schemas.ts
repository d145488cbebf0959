import { NOTIFICATION_KINDS, NOTIFICATION_STATUSES, type NotificationPreferences } from '@hearth/contracts';
import { z } from 'zod';
import { queryText } from '../http/validation.js';
import { NOTIFICATIONS_ERRORS as E } from './notifications.errors.js';

/** GET /api/notifications?status=&cursor=&kind=&room_id= */
export const notificationsQuery = z.object({
  status: queryText('status')
    .pipe(z.enum(NOTIFICATION_STATUSES, { error: E.status }))
    .optional()
    .default('all'),
  cursor: queryText('cursor').max(200, { error: E.cursor }).optional(),
  kind: queryText('kind')
    .pipe(z.enum(NOTIFICATION_KINDS, { error: E.kind }))
    .optional(),
  room_id: queryText('room_id').max(200).optional(),
});
export type NotificationsQuery = z.output<typeof notificationsQuery>;

const flag = (field: string) => z.boolean({ error: E.flag(field) });

const clock = z.string({ error: E.quietHours }).regex(/^([01]\d|2[0-3]):[0-5]\d$/, { error: E.quietHours });

const webhookUrl = z
  .string({ error: E.webhookUrl })
  .trim()
  .max(2000, { error: E.webhookUrl })
  .transform((value, context) => {
    if (value === '') return null;
    try {
      const url = new URL(value);
      if ((url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '')
        return url.toString();
    } catch {}
    context.addIssue({ code: 'custom', message: E.webhookUrl });
    return z.NEVER;
  });

/** PUT /api/notifications/preferences */
export const preferencesBody = z.object({
  push: flag('push'),
  email: flag('email'),
  email_digest: flag('email_digest').optional().default(false),
  webhook_url: z.union([webhookUrl, z.null()], { error: E.webhookUrl }),
  quiet_hours: z.union([z.object({ start: clock, end: clock }), z.null()], { error: E.quietHours }),
}) satisfies z.ZodType<NotificationPreferences, unknown>;

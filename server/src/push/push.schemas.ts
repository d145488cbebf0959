import { z } from 'zod';
import { PUSH_ERRORS as E } from './push.errors.js';

const base64url = (bytes: number, error: string) =>
  z
    .string({ error })
    .max(200, { error })
    .regex(/^[A-Za-z0-9_-]+={0,2}$/, { error })
    .refine((value) => Buffer.from(value, 'base64url').length === bytes, { error });

/** POST /api/push/subscriptions: the browser's PushSubscription JSON. */
export const subscriptionBody = z.object({
  endpoint: z.string({ error: E.endpointHttps }).max(2000, { error: E.endpointHttps }),
  expirationTime: z.number().nullable().optional(),
  keys: z.object(
    {
      p256dh: base64url(65, E.p256dh).refine((value) => Buffer.from(value, 'base64url')[0] === 4, {
        error: E.p256dh,
      }),
      auth: base64url(16, E.auth),
    },
    { error: E.keys },
  ),
});
export type SubscriptionBody = z.output<typeof subscriptionBody>;

/** DELETE /api/push/subscriptions */
export const unsubscribeBody = z.object({
  endpoint: z.string({ error: E.endpointHttps }).max(2000, { error: E.endpointHttps }),
});

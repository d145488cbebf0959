import https from 'node:https';
import type { PushMessage } from '@hearth/contracts';
import type { Logger } from 'pino';
import webpush from 'web-push';
import type { Channel, Delivery } from '../notifications/index.js';
import { publicOnlyLookup } from './push.endpoint.js';
import type { PushRepository, VapidKeys } from './push.repository.js';
import { VapidHeaders } from './vapid-headers.js';

export interface PushChannelOptions {
  repository: PushRepository;
  keys: () => Promise<VapidKeys>;
  /** The VAPID `sub`: a mailto: or https: contact for the push services. */
  subject: string;
  /** PUSH_ALLOW_PRIVATE_ENDPOINTS: send to private addresses too (a push service of one's own). */
  allowPrivate: boolean;
  log: Logger;
  /** Each push gives up after this long. */
  timeoutMs?: number;
}

/** How long a push service keeps a message for a device that is off: a day if critical, else an hour. */
const TTL_CRITICAL = 86_400;
const TTL_OTHER = 3600;
/** Push services take at most 4 KB of payload; the body is cut well below that. */
const MAX_BODY = 1000;

/**
 * docs/alerts.md#web-push: one message per subscription of the person, encrypted (RFC 8291,
 * aes128gcm) by the web-push package and signed with the household's VAPID key (RFC 8292, a token
 * per push service kept for hours: vapid-headers.ts); TTL,
 * `Urgency: high` for critical ones; a subscription the push service answers 404 or 410 for is deleted.
 */
export function pushChannel(options: PushChannelOptions): Channel {
  const { repository, log } = options;
  // Keeps connections to the push services, and refuses private addresses at connect time.
  const agent = new https.Agent({
    keepAlive: true,
    maxSockets: 16,
    ...(options.allowPrivate ? {} : { lookup: publicOnlyLookup as never }),
  });
  const vapid = new VapidHeaders();
  return {
    name: 'push',
    wants: (delivery) => delivery.preferences.push,
    async send(delivery: Delivery) {
      const subscriptions = await repository.of(delivery.person.id);
      if (subscriptions.length === 0) return;
      const keys = await options.keys();
      const { notice } = delivery;
      const message: PushMessage = {
        title: notice.title,
        body: notice.body.slice(0, MAX_BODY),
        url: new URL(delivery.url).pathname,
        tag: notice.id,
        severity: delivery.severity,
        notification_id: delivery.notification_id,
      };
      const payload = JSON.stringify(message);
      const failures: unknown[] = [];
      await Promise.all(
        subscriptions.map(async (subscription) => {
          try {
            await webpush.sendNotification(subscription, payload, {
              // Signed once per push service for hours; null (which web-push documents, its types
              // do not) keeps it from signing again.
              vapidDetails: null as never,
              headers: { Authorization: vapid.authorization(subscription.endpoint, options.subject, keys) },
              TTL: delivery.critical ? TTL_CRITICAL : TTL_OTHER,
              urgency: delivery.critical ? 'high' : 'normal',
              contentEncoding: 'aes128gcm',
              timeout: options.timeoutMs ?? 10_000,
              agent,
            });
          } catch (error) {
            const status = (error as { statusCode?: number }).statusCode;
            if (status === 404 || status === 410) {
              await repository.forget(subscription.endpoint);
              log.info({ user: delivery.person.id, status }, 'push subscription gone; deleted');
              return;
            }
            failures.push(error);
          }
        }),
      );
      if (failures.length > 0) throw failures[0];
    },
  };
}

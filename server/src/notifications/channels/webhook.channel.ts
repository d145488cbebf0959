import type { Channel, Delivery } from './channel.js';

export interface WebhookLimits {
  /** Each attempt gives up after this long. */
  timeoutMs: number;
  /** Attempts in all (a 5xx, a time-out or no answer is tried again; a 4xx is not). */
  attempts: number;
  /** The wait before each retry. */
  backoffMs: number;
}

export const DEFAULT_WEBHOOK_LIMITS: WebhookLimits = { timeoutMs: 5000, attempts: 3, backoffMs: 1000 };

/** ntfy's priorities: 5 urgent (an open critical incident), 4 high (a warning), 3 default. */
function priorityOf(delivery: Delivery): string {
  if (delivery.critical) return '5';
  if (delivery.notice.resolved_at === null && delivery.severity === 'warning') return '4';
  return '3';
}

/** A header value as ntfy reads it: ASCII as it is, anything else as RFC 2047 UTF-8. */
const headerText = (text: string) =>
  /^[\x20-\x7e]*$/.test(text) ? text : `=?UTF-8?B?${Buffer.from(text, 'utf8').toString('base64')}?=`;

class RetryableError extends Error {}

/**
 * docs/alerts.md#channels: a POST per notification to the person's URL, in ntfy's form (the body is
 * the message; Title, Priority, Click and Tags headers), which ntfy, and endpoints that read the
 * same, show as a phone notification. Bounded: a few attempts, each with a time-out.
 */
export function webhookChannel(limits: WebhookLimits = DEFAULT_WEBHOOK_LIMITS): Channel {
  const attempt = async (url: string, delivery: Delivery) => {
    const { notice } = delivery;
    let response: Response;
    try {
      response = await fetch(url, {
        method: 'POST',
        headers: {
          'content-type': 'text/plain; charset=utf-8',
          title: headerText(notice.title),
          priority: priorityOf(delivery),
          click: delivery.url,
          tags:
            notice.resolved_at === null
              ? delivery.critical
                ? 'rotating_light'
                : 'warning'
              : 'white_check_mark',
        },
        body: notice.body,
        redirect: 'manual',
        signal: AbortSignal.timeout(limits.timeoutMs),
      });
    } catch (error) {
      throw new RetryableError(`webhook unreachable: ${(error as Error).message}`);
    }
    await response.body?.cancel().catch(() => {});
    if (response.status >= 500 || response.status === 429)
      throw new RetryableError(`webhook answered ${response.status}`);
    if (response.status >= 300) throw new Error(`webhook answered ${response.status}`);
  };
  return {
    name: 'webhook',
    wants: (delivery) => delivery.preferences.webhook_url !== null,
    async send(delivery) {
      const url = delivery.preferences.webhook_url;
      if (!url) return;
      for (let tried = 1; ; tried++) {
        try {
          return await attempt(url, delivery);
        } catch (error) {
          if (!(error instanceof RetryableError) || tried >= limits.attempts) throw error;
          await new Promise((resolve) => setTimeout(resolve, limits.backoffMs * tried));
        }
      }
    },
  };
}

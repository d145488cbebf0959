import type { Logger } from 'pino';
import type { Clock } from '../shared/clock.js';
import { yieldToEventLoop } from '../storage/batches.js';
import { nowIso } from '../storage/columns.js';
import type { Channel, Delivery, Person } from './channels/channel.js';
import { planDelivery } from './delivery.plan.js';
import type { Notice } from './notice.js';
import type { DueRow, NotificationsRepository } from './notifications.repository.js';
import { quietUntil } from './quiet-hours.js';

export interface DeliveryDeps {
  repository: NotificationsRepository;
  channels: readonly Channel[];
  /** The hourly e-mail digest of what is not critical. */
  digest?: (person: Person, notices: Notice[], url: string) => Promise<void>;
  clock: Clock;
  /** HOUSEHOLD_TIME_ZONE: quiet hours are read in it. */
  timeZone: string;
  /** PUBLIC_URL: where a notification leads. */
  publicUrl: string;
  log: Logger;
}

/** How long an instance holds a notification it is sending. */
const CLAIM_MS = 60_000;
/** Most notifications one sweep takes, and most sends under way at once. */
const SWEEP_LIMIT = 200;
const MAX_IN_FLIGHT = 64;
/** A channel that neither answers nor fails within this is left behind (its own bounds are shorter). */
const CHANNEL_GUARD_MS = 30_000;
const DIGEST_EVERY_MS = 3_600_000;

/**
 * docs/alerts.md#delivery: sends what is due, each notification claimed in the database so that one
 * instance sends it once; channels run side by side, none waiting for another.
 */
export class DeliveryRunner {
  private readonly failing = new Set<string>();
  /** Notifications being sent, by id: a slow channel holds up neither the next sweep nor anyone else's. */
  private readonly inFlight = new Map<string, Promise<void>>();

  constructor(private readonly deps: DeliveryDeps) {}

  /** Where a notice leads: its device's page, or the inbox. */
  urlOf(notice: Notice): string {
    const base = this.deps.publicUrl;
    return notice.device_id
      ? `${base}/devices/${encodeURIComponent(notice.device_id)}`
      : `${base}/notifications`;
  }

  /**
   * One sweep: starts sending every notification due now (those already under way aside) and
   * resolves once they are claimed; `settled()` waits for the sending. Answers how many it started.
   */
  async sweep(): Promise<number> {
    const now = this.deps.clock.now();
    const due = await this.deps.repository.due(nowIso(now), SWEEP_LIMIT);
    let started = 0;
    for (const item of due) {
      if (this.inFlight.size >= MAX_IN_FLIGHT) break;
      if (this.inFlight.has(item.id)) continue;
      const { repository } = this.deps;
      // A turn of the event loop per notification (see storage/batches.ts): a sweep of many on
      // SQLite would otherwise be one task, in front of the device stream's messages.
      await yieldToEventLoop();
      if (!(await repository.claim(item.id, item.due_at, nowIso(now), nowIso(now + CLAIM_MS)))) continue;
      started++;
      const sending = this.deliverOne(item.id, item.due_at, now).finally(() => this.inFlight.delete(item.id));
      this.inFlight.set(item.id, sending);
    }
    return started;
  }

  /** Resolves once what is being sent now has been (or has given up). */
  async settled(): Promise<void> {
    await Promise.all(this.inFlight.values());
  }

  /** Sends one claimed notification (or puts it off), and lets it go. */
  private async deliverOne(id: string, dueAt: string, now: number) {
    const { repository } = this.deps;
    try {
      const row = await repository.claimed(id);
      if (!row) return;
      await yieldToEventLoop();
      await this.plan(row, now);
    } catch (error) {
      this.deps.log.warn({ err: error, notification: id }, 'delivering a notification failed');
      await repository.release(id, dueAt, { next: nowIso(now + CLAIM_MS) }).catch(() => {});
    }
  }

  private async plan(row: DueRow, now: number) {
    const { repository } = this.deps;
    const { notice } = row;
    const person = await repository.person(row.user_id);
    const preferences = await repository.preferences(row.user_id);
    const critical = notice.severity === 'critical' && notice.resolved_at === null;
    const plan = person?.locked
      ? ({ action: 'skip' } as const)
      : planDelivery({
          now,
          zone: this.deps.timeZone,
          version: notice.version,
          sentVersion: row.sent_version,
          sentAt: row.sent_at === null ? null : Date.parse(row.sent_at),
          critical,
          resolved: notice.resolved_at !== null,
          windowMinutes: notice.window_minutes,
          quietHours: preferences.quiet_hours,
        });
    if (!person || plan.action === 'skip') return repository.skip(row.id, row.due_at, notice.version);
    if (plan.action === 'later') return repository.release(row.id, row.due_at, { next: nowIso(plan.at) });
    const delivery: Delivery = {
      notification_id: row.id,
      person,
      preferences,
      notice,
      critical,
      severity: notice.severity,
      url: this.urlOf(notice),
    };
    // Side by side, each started in a task of its own: a channel's first synchronous part (a
    // push's encryption, an e-mail's composition) does not add to another's.
    const sending: Promise<void>[] = [];
    for (const channel of this.deps.channels.filter((candidate) => candidate.wants(delivery))) {
      await yieldToEventLoop();
      sending.push(this.send(channel, delivery));
    }
    await Promise.all(sending);
    const digest = !critical && preferences.email_digest && this.deps.digest !== undefined;
    await repository.release(row.id, row.due_at, {
      sent: { version: notice.version, at: nowIso(now), digest },
      next: null,
    });
  }

  private async send(channel: Channel, delivery: Delivery): Promise<void> {
    let guard: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        channel.send(delivery),
        new Promise((_resolve, reject) => {
          guard = setTimeout(
            () => reject(new Error(`${channel.name} did not finish in time`)),
            CHANNEL_GUARD_MS,
          );
          guard.unref();
        }),
      ]);
      this.failing.delete(`${channel.name}:${delivery.person.id}`);
    } catch (error) {
      // One line per channel and person until it works again: a dead webhook must not flood the log.
      const key = `${channel.name}:${delivery.person.id}`;
      if (!this.failing.has(key)) {
        this.failing.add(key);
        this.deps.log.warn(
          {
            err: error,
            channel: channel.name,
            user: delivery.person.id,
            notification: delivery.notification_id,
          },
          'a notification channel failed',
        );
      }
    } finally {
      clearTimeout(guard);
    }
  }

  /** docs/alerts.md#channels: each person's digest, at most one an hour and not in quiet hours. */
  async digests(): Promise<void> {
    const send = this.deps.digest;
    if (!send) return;
    const { repository, clock } = this.deps;
    const now = clock.now();
    for (const waiting of await repository.digestsWaiting()) {
      const from = waiting.last ?? waiting.since;
      if (from !== null && Date.parse(from) + DIGEST_EVERY_MS > now) continue;
      const preferences = await repository.preferences(waiting.user_id);
      if (quietUntil(preferences.quiet_hours, now, this.deps.timeZone) !== null) continue;
      if (!(await repository.claimDigest(waiting.user_id, waiting.last, nowIso(now)))) continue;
      const person = await repository.person(waiting.user_id);
      const notices = await repository.takeDigest(waiting.user_id);
      if (!person || person.locked || notices.length === 0 || !preferences.email_digest) continue;
      await send(person, notices, `${this.deps.publicUrl}/notifications`).catch((error) =>
        this.deps.log.warn({ err: error, user: person.id }, 'sending an e-mail digest failed'),
      );
    }
  }
}

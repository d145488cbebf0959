import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import { z } from 'zod';
import { type ActivityLog, noActivity } from '../activity/index.js';
import type { Bus } from '../bus/bus.js';
import { instanceChanges } from '../bus/instance-changes.js';
import type { ReachSource } from '../devicehub/index.js';
import type { Module } from '../lifecycle/module.js';
import type { Mailer } from '../mail/index.js';
import { type Clock, systemClock } from '../shared/clock.js';
import type { Database } from '../storage/schema.js';
import type { Guards } from '../users/index.js';
import type { Channel } from './channels/channel.js';
import { emailChannel } from './channels/email.channel.js';
import { DEFAULT_WEBHOOK_LIMITS, type WebhookLimits, webhookChannel } from './channels/webhook.channel.js';
import type { AcknowledgeIncident, Notifier } from './notice.js';
import { DeliveryRunner } from './notifications.delivery.js';
import { DEFAULT_LIVE_LIMITS, type LiveLimits, LiveNotifications } from './notifications.live.js';
import { NotificationsRepository } from './notifications.repository.js';
import { registerNotificationsRoutes } from './notifications.routes.js';
import { NotificationsService } from './notifications.service.js';

export interface NotificationsModuleDeps {
  db: Kysely<Database>;
  log: Logger;
  guards: Guards;
  /** Who may view which device: who is told of what. */
  reach: ReachSource;
  /** Instances sharing the database tell each other whose notifications changed. */
  bus: Bus;
  /** DEVICEHUB_TOPIC_PREFIX */
  topicPrefix: string;
  mailer: Mailer;
  /** Channels beyond e-mail and webhooks (Web Push), each one file (docs/alerts.md#channels). */
  channels?: Channel[];
  /** The incident's side of an acknowledgement (late-bound: the alerts domain). */
  acknowledgeIncident: AcknowledgeIncident;
  /** PUBLIC_URL */
  publicUrl: string;
  /** HOUSEHOLD_TIME_ZONE */
  timeZone: string;
  clock?: Clock;
  activity?: ActivityLog;
  /** How often due deliveries are looked for (they are also looked for at once when news arrives). */
  sweepMs?: number;
  webhook?: Partial<WebhookLimits>;
  live?: Partial<LiveLimits>;
}

export interface NotificationsModule extends Module {
  /** What the alerts domain tells people through. */
  notifier: Notifier;
  /** Sends what is due now; resolves when it has (tests with a fake clock). */
  sweep(): Promise<void>;
}

const changedPeople = z.object({ user_ids: z.array(z.string().min(1).max(200)).max(10_000) });
const SWEEP_MS = 1000;

/** The inbox, its live stream and the delivery of notifications (docs/alerts.md). */
export function notificationsModule(deps: NotificationsModuleDeps): NotificationsModule {
  const log = deps.log.child({ domain: 'notifications' });
  const clock = deps.clock ?? systemClock;
  const repository = new NotificationsRepository(deps.db);
  const email = emailChannel(deps.mailer);
  const runner = new DeliveryRunner({
    repository,
    channels: [
      ...(deps.channels ?? []),
      email,
      webhookChannel({ ...DEFAULT_WEBHOOK_LIMITS, ...deps.webhook }),
    ],
    digest: email.digest,
    clock,
    timeZone: deps.timeZone,
    publicUrl: deps.publicUrl,
    log,
  });
  let live: LiveNotifications | undefined;
  const instances = instanceChanges({
    bus: deps.bus,
    topic: `${deps.topicPrefix}/instances/notifications`,
    log,
    schema: changedPeople,
    apply: (change) => live?.changed(change.user_ids),
    what: 'notification change',
  });

  // One sweep at a time; news while one runs asks for another right after it.
  let timer: NodeJS.Timeout | undefined;
  let sweeping: Promise<void> | undefined;
  let again = false;
  let closed = false;
  const sweep = () => {
    if (closed) return;
    if (sweeping) {
      again = true;
      return;
    }
    sweeping = (async () => {
      try {
        await runner.sweep();
        await runner.digests();
      } catch (error) {
        log.warn({ err: error }, 'the notification sweep failed');
      }
    })().finally(() => {
      sweeping = undefined;
      if (again) {
        again = false;
        sweep();
      }
    });
  };

  const service = new NotificationsService({
    repository,
    reach: deps.reach,
    clock,
    acknowledgeIncident: (...args) => deps.acknowledgeIncident(...args),
    changed: (userIds) => {
      if (userIds.length === 0) return;
      live?.changed(userIds);
      instances.share({ user_ids: [...userIds] });
    },
    due: sweep,
  });

  return {
    name: 'notifications',
    notifier: { publish: (notice, deliver) => service.publish(notice, deliver) },
    async sweep() {
      await sweeping;
      sweep();
      await sweeping;
      await runner.settled();
    },
    register(app) {
      live = new LiveNotifications((who) => service.summary(who), log, {
        ...DEFAULT_LIVE_LIMITS,
        ...deps.live,
      });
      const streams = live;
      // Open streams would hold the HTTP server's close for its whole grace time.
      app.addHook('preClose', (done) => {
        streams.close();
        done();
      });
      registerNotificationsRoutes(app, deps.guards, service, streams, deps.activity ?? noActivity);
    },
    start() {
      instances.start();
      timer = setInterval(sweep, deps.sweepMs ?? SWEEP_MS);
      timer.unref();
    },
    async close() {
      closed = true;
      clearInterval(timer);
      instances.close();
      await sweeping;
      // What is still being sent has its claim run out and is sent by another instance or the next start.
      await Promise.race([runner.settled(), new Promise((resolve) => setTimeout(resolve, 2000).unref())]);
      live?.close();
    },
  };
}

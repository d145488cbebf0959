import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import { type ActivityLog, noActivity } from '../activity/index.js';
import type { DeviceFeed, ReachSource } from '../devicehub/index.js';
import type { Module } from '../lifecycle/module.js';
import type { Notifier } from '../notifications/index.js';
import { type Clock, systemClock } from '../shared/clock.js';
import type { Database } from '../storage/schema.js';
import type { Guards } from '../users/index.js';
import { AlertEngine } from './alerts.engine.js';
import { AlertsRepository } from './alerts.repository.js';
import { registerAlertsRoutes } from './alerts.routes.js';
import { AlertsService } from './alerts.service.js';

export interface AlertsModuleDeps {
  db: Kysely<Database>;
  log: Logger;
  guards: Guards;
  /** The hub's devices as they change, and its status (docs/alerts.md#rules). */
  feed: DeviceFeed;
  /** Who may view which device: who may mute it. */
  reach: ReachSource;
  notifier: Notifier;
  /** HOUSEHOLD_TIME_ZONE */
  timeZone: string;
  clock?: Clock;
  activity?: ActivityLog;
  /** How often conditions, the hub and repeats are looked at (default 1 s). */
  tickMs?: number;
}

export interface AlertsModule extends Module {
  /** The incident's side of an acknowledgement (the notifications domain calls it). */
  acknowledge(incidentId: string, by: { id: string; name: string }, at: string): Promise<void>;
  /** One beat now (conditions, the hub, repeats), after the device updates noted so far (tests). */
  tick(): Promise<void>;
}

const TICK_MS = 1000;

/** Built-in health and safety alerts (docs/alerts.md). */
export function alertsModule(deps: AlertsModuleDeps): AlertsModule {
  const log = deps.log.child({ domain: 'alerts' });
  const repository = new AlertsRepository(deps.db);
  const feed = deps.feed;
  const engine = new AlertEngine({
    repository,
    feed: {
      find: (id) => feed.find(id),
      devices: () => feed.all(),
      reportsAvailability: (id) => feed.reportsAvailability(id),
      hubStatus: () => feed.hubStatus(),
    },
    notifier: deps.notifier,
    clock: deps.clock ?? systemClock,
    timeZone: deps.timeZone,
    log,
  });
  const service = new AlertsService(engine, repository, feed, deps.reach);
  let timer: NodeJS.Timeout | undefined;
  let stopListening: (() => void) | undefined;
  let ticking = false;

  return {
    name: 'alerts',
    acknowledge: (incidentId, by, at) => engine.acknowledge(incidentId, by.id, at),
    tick: () => engine.tick(),
    register: (app) => registerAlertsRoutes(app, deps.guards, service, deps.activity ?? noActivity),
    async start() {
      await engine.load();
      stopListening = feed.listen(engine);
      timer = setInterval(() => {
        if (ticking) return;
        ticking = true;
        void engine.tick().finally(() => {
          ticking = false;
        });
      }, deps.tickMs ?? TICK_MS);
      timer.unref();
    },
    async close() {
      stopListening?.();
      clearInterval(timer);
      engine.stop();
      await engine.settled();
    },
  };
}

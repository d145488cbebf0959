import {
  type AutomationRunEvent,
  automationTopics,
  type HouseholdLocation,
  RUN_STATUSES,
} from '@hearth/contracts';
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import { z } from 'zod';
import { type ActivityLog, noActivity } from '../activity/index.js';
import type { Bus } from '../bus/bus.js';
import { instanceChanges } from '../bus/instance-changes.js';
import {
  type DeviceDirectory,
  type DeviceFeed,
  type DeviceGate,
  NOTHING,
  type ReachSource,
} from '../devicehub/index.js';
import type { Module } from '../lifecycle/module.js';
import type { ScenesService } from '../scenes/index.js';
import { nowIso } from '../storage/columns.js';
import type { Database } from '../storage/schema.js';
import type { Guards, UsersRepository } from '../users/index.js';
import { AutomationEngine } from './automations.engine.js';
import type { Notifier } from './automations.notifier.js';
import { AutomationsRepository } from './automations.repository.js';
import { registerAutomationsRoutes } from './automations.routes.js';
import type { Location } from './automations.schedule.js';
import { AutomationsService } from './automations.service.js';

export interface AutomationsModuleDeps {
  db: Kysely<Database>;
  log: Logger;
  guards: Guards;
  feed: DeviceFeed;
  gate: DeviceGate;
  devices: Pick<DeviceDirectory, 'publishEvent'>;
  scenes: ScenesService;
  reach: ReachSource;
  users: UsersRepository;
  notifier: Notifier;
  activity?: ActivityLog;
  clock?: { now(): number };
  /** HOUSEHOLD_TIME_ZONE */
  timeZone: string;
  /** HOUSEHOLD_LATITUDE / HOUSEHOLD_LONGITUDE (an admin may set another in the app). */
  location: Location | null;
  bus: Bus;
  /** DEVICEHUB_TOPIC_PREFIX */
  topicPrefix: string;
  /** Longest wait for one step (default 10 s). */
  stepTimeoutMs?: number;
}

export interface AutomationsModule extends Module {
  /** One beat now, and the runs it started settled (tests with a fake clock). */
  tick(): Promise<void>;
}

const change = z.object({
  changed: z
    .array(z.object({ id: z.string().min(1).max(200), removed: z.boolean() }))
    .max(1000)
    .optional(),
  runs: z
    .array(
      z.object({
        automation_id: z.string().min(1).max(200),
        run_id: z.string().min(1).max(200),
        status: z.enum([...RUN_STATUSES, 'running', 'waiting', 'queued']),
      }),
    )
    .max(1000)
    .optional(),
});

/** Scenes' companion: automations (docs/automations.md). */
export function automationsModule(deps: AutomationsModuleDeps): AutomationsModule {
  const log = deps.log.child({ domain: 'automations' });
  const clock = deps.clock ?? { now: () => Date.now() };
  const repository = new AutomationsRepository(deps.db);
  let stored: HouseholdLocation | undefined;
  const location = (): Location | null => {
    if (stored)
      return stored.latitude !== null && stored.longitude !== null
        ? { latitude: stored.latitude, longitude: stored.longitude }
        : null;
    return deps.location;
  };
  let engine: AutomationEngine | undefined;
  const publishChange = (id: string, removed: boolean) =>
    deps.devices.publishEvent(automationTopics.changed, { id, removed }, 'managers');
  const publishRun = (event: AutomationRunEvent) =>
    deps.devices.publishEvent(automationTopics.run, event, 'managers');
  const instances = instanceChanges({
    bus: deps.bus,
    topic: `${deps.topicPrefix}/instances/automations`,
    log,
    schema: change,
    apply: (news) => {
      for (const each of news.changed ?? []) {
        void engine
          ?.reload(each.id)
          .catch((error) => log.warn({ err: error }, 'reading an automation again failed'));
        publishChange(each.id, each.removed);
      }
      for (const run of news.runs ?? []) publishRun(run);
    },
    what: 'automation change',
  });
  engine = new AutomationEngine({
    repository,
    feed: deps.feed,
    gate: deps.gate,
    scenes: deps.scenes,
    async ownerReach(ownerId) {
      const owner = await deps.users.findById(ownerId);
      if (!owner) return undefined;
      const label = `${owner.firstName} ${owner.lastName}`.trim() || owner.email;
      // Locked by an admin: acts on nothing, like their guest passes (docs/passes.md).
      if (owner.lockoutEnabled && owner.lockoutReason === 'admin_lock') return { reach: NOTHING, label };
      return { reach: await deps.reach.reachOf(owner), label };
    },
    notifier: deps.notifier,
    activity: deps.activity ?? noActivity,
    clock,
    zone: deps.timeZone,
    location,
    log,
    publishRun(event) {
      publishRun(event);
      instances.share({ runs: [event] });
    },
    publishChange(id, removed) {
      publishChange(id, removed);
      instances.share({ changed: [{ id, removed }] });
    },
    ...(deps.stepTimeoutMs ? { stepTimeoutMs: deps.stepTimeoutMs } : {}),
  });
  const service = new AutomationsService({
    repository,
    engine,
    feed: deps.feed,
    scenes: deps.scenes,
    person: async (id) => (await deps.users.findById(id)) !== undefined,
    reachOf: (user) => deps.reach.reachOf(user),
    clock,
    zone: deps.timeZone,
    location: {
      get: location,
      view: () => location() ?? { latitude: null, longitude: null },
      async set(value) {
        await repository.setLocation(value, nowIso(clock.now()));
        stored = value;
      },
    },
  });
  const running = engine;
  let refresh: NodeJS.Timeout | undefined;

  return {
    name: 'automations',
    async tick() {
      await running.tick();
      await running.settled();
    },
    register: (app) => registerAutomationsRoutes(app, deps.guards, service, deps.activity ?? noActivity),
    async start() {
      stored = await repository.location();
      await running.load();
      instances.start();
      running.start();
      // Another instance's admin may set the location; reading it now and then is enough.
      refresh = setInterval(() => {
        repository
          .location()
          .then((value) => {
            stored = value;
          })
          .catch(() => {});
      }, 30_000);
      refresh.unref();
      await running.started();
    },
    async close() {
      clearInterval(refresh);
      instances.close();
      await running.close();
    },
  };
}

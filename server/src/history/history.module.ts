import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import { type ActivityLog, noActivity } from '../activity/index.js';
import { type DeviceFeed, type ReachSource, roleReach } from '../devicehub/index.js';
import type { Module } from '../lifecycle/module.js';
import type { Database } from '../storage/schema.js';
import type { Guards } from '../users/index.js';
import { HistoryMaintenance, type Retention } from './history.maintenance.js';
import { HistoryRecorder } from './history.recorder.js';
import { HistoryRepository } from './history.repository.js';
import { registerHistoryRoutes } from './history.routes.js';
import { HistoryService } from './history.service.js';
import { GuardedStore, HistoryWorker, repositoryStore } from './history.writer.js';

export interface HistoryModuleDeps {
  db: Kysely<Database>;
  log: Logger;
  guards: Guards;
  /** The device hub: its devices, and their updates as they happen. */
  devices: DeviceFeed;
  /** HISTORY_HEARTBEAT in ms. */
  heartbeatMs: number;
  retention: Retention;
  /** Every caller's reach (docs/access.md); none: the roles' defaults. */
  reach?: ReachSource;
  /** Where changes of what is recorded go (docs/activity.md); none: not recorded. */
  activity?: ActivityLog;
  /**
   * The SQLite file, when the database is one: readings are then written, and rolled up and
   * pruned, by the history worker on a connection of its own, off the device stream's thread.
   */
  sqliteFile?: string;
}

/** The history worker starts with the first batch of readings, or this long after the server. */
const WORKER_START_DELAY_MS = 30_000;

/** Every reading kept: recording, roll-ups, retention and the history API (docs/history.md). */
export function historyModule(deps: HistoryModuleDeps): Module {
  const log = deps.log.child({ domain: 'history' });
  const repository = new HistoryRepository(deps.db);
  const worker = deps.sqliteFile
    ? new HistoryWorker({ file: deps.sqliteFile, log, maintenance: { retention: deps.retention } })
    : undefined;
  const maintenance = worker
    ? undefined
    : new HistoryMaintenance({ repository, log, retention: deps.retention });
  // Rows the database refuses are set aside; /healthz names `history` after a minute without writing.
  const store = new GuardedStore(worker ?? repositoryStore(repository), { log });
  const recorder = new HistoryRecorder({
    repository,
    store,
    log,
    heartbeatMs: deps.heartbeatMs,
    ...(maintenance ? { written: (oldest: number) => maintenance.written(oldest) } : {}),
  });
  const service = new HistoryService({
    repository,
    devices: deps.devices,
    recorder,
    retention: deps.retention,
  });
  let unlisten: (() => void) | undefined;

  return {
    name: 'history',
    ready: () => store.healthy,
    register(app) {
      registerHistoryRoutes(app, deps.guards, service, deps.reach ?? roleReach, deps.activity ?? noActivity);
      unlisten = deps.devices.listen(recorder);
    },
    async start() {
      recorder.setExclusions(await repository.exclusions());
      // docs/history.md#gaps: whatever was recorded before this start ends here.
      await repository.addGaps([{ device_id: '', t: Date.now() }]);
      maintenance?.start();
      worker?.startAfter(WORKER_START_DELAY_MS);
    },
    async close() {
      unlisten?.();
      await maintenance?.stop();
      // The last readings go through the worker before it ends.
      await recorder.close();
      await worker?.close();
    },
  };
}

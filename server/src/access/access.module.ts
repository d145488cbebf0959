import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import { z } from 'zod';
import { type ActivityLog, noActivity } from '../activity/index.js';
import type { Bus } from '../bus/bus.js';
import { instanceChanges } from '../bus/instance-changes.js';
import type { DeviceDirectory, ReachSource } from '../devicehub/index.js';
import type { Module } from '../lifecycle/module.js';
import { nowIso } from '../storage/columns.js';
import type { Dialect } from '../storage/database.js';
import type { Database } from '../storage/schema.js';
import type { Guards, Role, UserRecord, UsersRepository } from '../users/index.js';
import { AccessRepository } from './access.repository.js';
import { registerAccessRoutes } from './access.routes.js';
import { AccessService } from './access.service.js';

export interface AccessModuleDeps {
  db: Kysely<Database>;
  dialect: Dialect;
  log: Logger;
  guards: Guards;
  users: Pick<UsersRepository, 'findById'>;
  /** Where the hub's devices are now: a device's room. */
  devices: Pick<DeviceDirectory, 'roomOf'>;
  bus: Bus;
  /** DEVICEHUB_TOPIC_PREFIX: instances sharing it tell each other whose rules changed. */
  topicPrefix: string;
  /** Where rule changes are recorded (docs/activity.md); none: not recorded. */
  activity?: ActivityLog;
}

/** What a role change (PATCH /api/auth/users/{id}) does to the access rules (the users domain's `RoleChangeRules`). */
export interface AccessReset {
  /** Why the caller may not reset the target's rules (403), or undefined. */
  resetDenial(caller: UserRecord, target: UserRecord): Promise<string | undefined>;
  /** Inside the role change's transaction: reset, or kept and capped at the caller's reach; whether they changed. */
  roleChanged(
    db: Kysely<Database>,
    caller: UserRecord,
    target: UserRecord,
    role: Role,
    reset: boolean,
  ): Promise<boolean>;
  /** Once stored: the accounts' open streams follow. */
  changed(userIds: string[]): void;
}

/** What deleting a room does to the rules naming it (the rooms domain's `RoomRules`, docs/access.md#deleting-a-room). */
export interface RoomRulesCarry {
  /** Inside the deletion's transaction: the room's rules become rules on its devices; answers whose. */
  carry(db: Kysely<Database>, roomId: string, deviceIds: readonly string[]): Promise<string[]>;
  /**
   * Once stored, before the devices move: this instance's open streams of those accounts read their
   * rules again (each instance does this as the deletion reaches it).
   */
  reread(userIds: readonly string[]): Promise<void>;
}

export interface AccessModule extends Module {
  /** Every caller's reach, and word of changed rules (the device hub, rooms and history use it). */
  reach: ReachSource;
  reset: AccessReset;
  roomRules: RoomRulesCarry;
}

const changedUsers = z.object({ user_ids: z.array(z.string().min(1).max(200)).max(1000) });

/** Access rules: who may view and control which devices (docs/access.md). */
export function accessModule(deps: AccessModuleDeps): AccessModule {
  const log = deps.log.child({ domain: 'access' });
  const listeners = new Set<(userIds: readonly string[]) => void | Promise<void>>();
  /** Tells this instance's listeners; settles once each has followed. */
  const tell = async (userIds: readonly string[]): Promise<void> => {
    const followed: Promise<void>[] = [];
    for (const listener of listeners) {
      try {
        const done = listener(userIds);
        if (done)
          followed.push(done.catch((error) => log.error({ err: error }, 'an access change listener failed')));
      } catch (error) {
        log.error({ err: error }, 'an access change listener failed');
      }
    }
    await Promise.all(followed);
  };
  // docs/access.md#several-instances: a change made through another instance reaches this one's streams.
  const instances = instanceChanges({
    bus: deps.bus,
    topic: `${deps.topicPrefix}/instances/access`,
    log,
    schema: changedUsers,
    apply: (change) => void tell(change.user_ids),
    what: 'access change',
  });
  const changed = (userIds: string[]) => {
    void tell(userIds);
    instances.share({ user_ids: userIds });
  };
  const service = new AccessService({
    repository: new AccessRepository(deps.db, deps.dialect),
    dialect: deps.dialect,
    users: deps.users,
    devices: deps.devices,
    changed,
  });
  return {
    name: 'access',
    reach: {
      reachOf: (user) => service.reachOf(user),
      onChange(listener) {
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
    },
    reset: {
      resetDenial: (caller, target) => service.resetDenial(caller, target),
      roleChanged: (db, caller, target, role, reset) => service.roleChanged(db, caller, target, role, reset),
      changed: (userIds) => service.changedRules(userIds),
    },
    roomRules: {
      carry: (db, roomId, deviceIds) =>
        new AccessRepository(db, deps.dialect).carryRoomRules(roomId, deviceIds, nowIso()),
      reread: tell,
    },
    register: (app) => registerAccessRoutes(app, deps.guards, service, deps.activity ?? noActivity),
    start: () => instances.start(),
    close: () => instances.close(),
  };
}

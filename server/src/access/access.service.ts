import type { AccessLevel, AccessRules, Role } from '@hearth/contracts';
import type { Kysely } from 'kysely';
import type { DeviceDirectory, Reach } from '../devicehub/index.js';
import { HttpError } from '../http/errors.js';
import { nowIso } from '../storage/columns.js';
import type { Dialect } from '../storage/database.js';
import type { Database } from '../storage/schema.js';
import type { UserRecord, UsersRepository } from '../users/index.js';
import { ACCESS_ERRORS as E } from './access.errors.js';
import {
  type Account,
  type Beyond,
  cappedRules,
  controlsEverything,
  editDenial,
  firstBeyond,
  levelOf,
  levelOfRoom,
  NO_RULES,
  type RuleSet,
  type RuleSight,
  readDenial,
  ruleSight,
  seenRules,
  withHidden,
} from './access.policy.js';
import { reachOf } from './access.reach.js';
import { AccessRepository } from './access.repository.js';
import type { AccessRulesInput } from './access.schemas.js';

export interface AccessServiceDeps {
  repository: AccessRepository;
  dialect: Dialect;
  users: Pick<UsersRepository, 'findById'>;
  /** Where the hub's devices are now (a reach reads a device's room from it). */
  devices: Pick<DeviceDirectory, 'roomOf'>;
  /** These accounts' rules changed: their open streams follow (here and on the other instances). */
  changed: (userIds: string[]) => void;
}

/** What one change did: per room and device, the new level (null: the entry went). */
export interface AccessChange {
  rooms: Record<string, AccessLevel | null>;
  devices: Record<string, AccessLevel | null>;
}

const toWire = (userId: string, rules: RuleSet): AccessRules => ({
  user_id: userId,
  rooms: Object.fromEntries(rules.rooms),
  devices: Object.fromEntries(rules.devices),
});

const diff = (before: ReadonlyMap<string, AccessLevel>, after: ReadonlyMap<string, AccessLevel>) => {
  const out: Record<string, AccessLevel | null> = {};
  for (const [id, level] of after) if (before.get(id) !== level) out[id] = level;
  for (const id of before.keys()) if (!after.has(id)) out[id] = null;
  return out;
};

const sameRules = (a: RuleSet, b: RuleSet) =>
  Object.keys(diff(a.rooms, b.rooms)).length === 0 && Object.keys(diff(a.devices, b.devices)).length === 0;

/** docs/access.md: reading and replacing an account's rules, and every caller's reach. */
export class AccessService {
  constructor(private readonly deps: AccessServiceDeps) {}

  /**
   * GET /api/access/{user_id}: the rules on what the caller sees (docs/access.md#what-a-caller-sees);
   * entries on rooms and devices hidden from it are left out.
   */
  async get(caller: UserRecord, userId: string): Promise<AccessRules> {
    const target = await this.target(caller, userId);
    const denial = readDenial(caller, target);
    if (denial) throw new HttpError(403, denial);
    // Admins' rules are never consulted (nor stored): they control everything.
    if (target.role === 'admin') return toWire(userId, NO_RULES);
    const { repository } = this.deps;
    const rules = await repository.rules(userId);
    const sees = await this.sightOf(caller, repository);
    return toWire(userId, sees ? seenRules(rules, sees) : rules);
  }

  /** PUT /api/access/{user_id}: all or nothing; refusals change nothing. */
  async replace(
    caller: UserRecord,
    userId: string,
    input: AccessRulesInput,
  ): Promise<{ rules: AccessRules; change: AccessChange }> {
    if (input.user_id !== undefined && input.user_id !== userId) throw new HttpError(400, E.userIdMismatch);
    const target = await this.target(caller, userId);
    const denial = editDenial(caller, target);
    if (denial) throw new HttpError(403, denial);
    const { repository } = this.deps;
    const [room] = await repository.unknownRooms(Object.keys(input.rooms));
    if (room !== undefined) throw new HttpError(400, E.unknownRoom(room));
    const [device] = await repository.unknownDevices(Object.keys(input.devices));
    if (device !== undefined) throw new HttpError(400, E.unknownDevice(device));
    const sent: RuleSet = {
      rooms: new Map(Object.entries(input.rooms)),
      devices: new Map(Object.entries(input.devices)),
    };
    const granter = await this.granter(caller);
    let rules = sent;
    let sees: RuleSight | undefined;
    const before = await repository.replace(
      userId,
      () => rules,
      nowIso(),
      async (was, store) => {
        if (!granter) return;
        const placement = await store.placement();
        // docs/access.md#what-a-caller-sees: what is hidden from the caller is as unknown, and its
        // rules stay as they are.
        sees = ruleSight(granter, placement, (id) => this.deps.devices.roomOf(id) !== undefined);
        const room = [...sent.rooms.keys()].find((id) => !sees!.room(id));
        if (room !== undefined) throw new HttpError(400, E.unknownRoom(room));
        const device = [...sent.devices.keys()].find((id) => !sees!.device(id));
        if (device !== undefined) throw new HttpError(400, E.unknownDevice(device));
        rules = withHidden(was, sent, sees);
        const beyond = firstBeyond(target.role, was, rules, granter, placement);
        if (beyond) throw new HttpError(403, E.beyondOwn(await this.named(beyond, granter, store)));
      },
    );
    const shown = (all: RuleSet) => (sees ? seenRules(all, sees) : all);
    const change = {
      rooms: diff(shown(before).rooms, shown(rules).rooms),
      devices: diff(shown(before).devices, shown(rules).devices),
    };
    this.deps.changed([userId]);
    return { rules: toWire(userId, shown(rules)), change };
  }

  /**
   * What a caller narrowed by rules sees of the household (docs/access.md#what-a-caller-sees);
   * undefined for one who sees everything (admins, residents without rules).
   */
  private async sightOf(caller: UserRecord, store: AccessRepository): Promise<RuleSight | undefined> {
    if (caller.role === 'admin') return undefined;
    const rules = await store.rules(caller.id);
    if (controlsEverything(caller.role, rules)) return undefined;
    return ruleSight(
      { role: caller.role, rules },
      await store.placement(),
      (id) => this.deps.devices.roomOf(id) !== undefined,
    );
  }

  /** The account's reach now (its role as given: the caller's token's, re-read on every request). */
  async reachOf(user: Pick<UserRecord, 'id' | 'role'>): Promise<Reach> {
    const rules = user.role === 'admin' ? NO_RULES : await this.deps.repository.rules(user.id);
    return reachOf(user.role, rules, (id) => this.deps.devices.roomOf(id));
  }

  /**
   * May the caller reset the target's rules along with a role change (PATCH /api/auth/users/{id})?
   * Not a resident narrowed by rules: the new role's defaults could be more than they have.
   */
  async resetDenial(caller: UserRecord, target: UserRecord): Promise<string | undefined> {
    // An admin's rules are empty: resetting them along with a demotion changes nothing.
    if (target.role === 'admin' && caller.role === 'admin') return undefined;
    const denial = editDenial(caller, target);
    if (denial) return denial;
    return (await this.granter(caller)) ? E.narrowedReset : undefined;
  }

  /**
   * Inside a role change's transaction (`db`): the target's rules for its new role. Reset, they go;
   * kept, a caller narrowed by rules caps them at its own (docs/access.md#granting). Answers
   * whether they changed.
   */
  async roleChanged(
    db: Kysely<Database>,
    caller: UserRecord,
    target: UserRecord,
    role: Role,
    reset: boolean,
  ): Promise<boolean> {
    const store = new AccessRepository(db, this.deps.dialect);
    await store.lock(target.id);
    if (reset) {
      await store.clear(target.id);
      return true;
    }
    const granter = await this.granter(caller, store);
    if (!granter || role === 'admin') return false;
    const rules = await store.rules(target.id);
    const capped = cappedRules(role, rules, granter, await store.placement());
    if (sameRules(rules, capped)) return false;
    await store.write(target.id, capped, nowIso());
    return true;
  }

  /** These accounts' rules changed (a role change's, once stored): their open streams follow. */
  changedRules(userIds: string[]) {
    this.deps.changed(userIds);
  }

  /** The caller as a granter whose grants are capped: a non-admin narrowed by rules; undefined otherwise. */
  private async granter(caller: UserRecord, store = this.deps.repository): Promise<Account | undefined> {
    if (caller.role === 'admin') return undefined;
    const rules = await store.rules(caller.id);
    return controlsEverything(caller.role, rules) ? undefined : { role: caller.role, rules };
  }

  /** A refusal names the room or device by its name, or by its id when it is hidden from the granter. */
  private async named(beyond: Beyond, granter: Account, store: AccessRepository): Promise<string> {
    const placement = 'device' in beyond ? (this.deps.devices.roomOf(beyond.device) ?? null) : null;
    const [what, id, level] =
      'room' in beyond
        ? (['room', beyond.room, levelOfRoom(granter.role, granter.rules, beyond.room)] as const)
        : ([
            'device',
            beyond.device,
            levelOf(granter.role, granter.rules, beyond.device, placement),
          ] as const);
    return (level !== 'none' && (await store.nameOf(what, id))) || id;
  }

  private async target(caller: UserRecord, userId: string): Promise<UserRecord> {
    // A `user` learns nothing of other accounts, not even whether they exist.
    if (caller.role === 'user' && caller.id !== userId) throw new HttpError(403, E.forbidden);
    const target = await this.deps.users.findById(userId);
    if (!target) throw new HttpError(404, E.userNotFound);
    return target;
  }
}

import type { AccessLevel, AccessRules } from '@hearth/contracts';
import type { DeviceDirectory, Reach } from '../devicehub/index.js';
import { HttpError } from '../http/errors.js';
import { nowIso } from '../storage/columns.js';
import type { UserRecord, UsersRepository } from '../users/index.js';
import { ACCESS_ERRORS as E } from './access.errors.js';
import { editDenial, NO_RULES, type RuleSet, readDenial } from './access.policy.js';
import { reachOf } from './access.reach.js';
import type { AccessRepository } from './access.repository.js';
import type { AccessRulesInput } from './access.schemas.js';

export interface AccessServiceDeps {
  repository: AccessRepository;
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

/** docs/access.md: reading and replacing an account's rules, and every caller's reach. */
export class AccessService {
  constructor(private readonly deps: AccessServiceDeps) {}

  /** GET /api/access/{user_id} */
  async get(caller: UserRecord, userId: string): Promise<AccessRules> {
    const target = await this.target(caller, userId);
    const denial = readDenial(caller, target);
    if (denial) throw new HttpError(403, denial);
    // Admins' rules are never consulted (nor stored): they control everything.
    if (target.role === 'admin') return toWire(userId, NO_RULES);
    return toWire(userId, await this.deps.repository.rules(userId));
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
    const rules: RuleSet = {
      rooms: new Map(Object.entries(input.rooms)),
      devices: new Map(Object.entries(input.devices)),
    };
    const before = await repository.replace(userId, rules, nowIso());
    const change = { rooms: diff(before.rooms, rules.rooms), devices: diff(before.devices, rules.devices) };
    this.deps.changed([userId]);
    return { rules: toWire(userId, rules), change };
  }

  /** The account's reach now (its role as given: the caller's token's, re-read on every request). */
  async reachOf(user: Pick<UserRecord, 'id' | 'role'>): Promise<Reach> {
    const rules = user.role === 'admin' ? NO_RULES : await this.deps.repository.rules(user.id);
    return reachOf(user.role, rules, (id) => this.deps.devices.roomOf(id));
  }

  /** May the caller reset the target's rules along with a role change (PATCH /api/auth/users/{id})? */
  resetDenial(caller: UserRecord, target: UserRecord): string | undefined {
    // An admin's rules are empty: resetting them along with a demotion changes nothing.
    return target.role === 'admin' && caller.role === 'admin' ? undefined : editDenial(caller, target);
  }

  /** Deletes the account's rules (a role change that resets them): its role's defaults apply. */
  async reset(userId: string): Promise<void> {
    await this.deps.repository.clear(userId);
    this.deps.changed([userId]);
  }

  private async target(caller: UserRecord, userId: string): Promise<UserRecord> {
    // A `user` learns nothing of other accounts, not even whether they exist.
    if (caller.role === 'user' && caller.id !== userId) throw new HttpError(403, E.forbidden);
    const target = await this.deps.users.findById(userId);
    if (!target) throw new HttpError(404, E.userNotFound);
    return target;
  }
}

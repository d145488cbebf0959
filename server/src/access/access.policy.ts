import { type AccessLevel, accessAtLeast, ROLE_DEFAULT_ACCESS, type Role } from '@hearth/contracts';
import { ACCESS_ERRORS as E } from './access.errors.js';

/**
 * The rules of docs/access.md as pure functions, table-tested: a device's level, and who may read
 * and change whose rules. The denials answer undefined when allowed, else the 403 message.
 */

/** One account's rules: a room's level, and a device's (which overrides its room's). */
export interface RuleSet {
  rooms: ReadonlyMap<string, AccessLevel>;
  devices: ReadonlyMap<string, AccessLevel>;
}

export const NO_RULES: RuleSet = { rooms: new Map(), devices: new Map() };

/** The role's default, or the admin's everything: admins' rules are never consulted. */
export const defaultLevel = (role: Role): AccessLevel => ROLE_DEFAULT_ACCESS[role];

/** A device's level: its own rule, else its room's, else the role's default (admins: control). */
export function levelOf(role: Role, rules: RuleSet, deviceId: string, roomId: string | null): AccessLevel {
  if (role === 'admin') return 'control';
  const own = rules.devices.get(deviceId);
  if (own !== undefined) return own;
  return levelOfRoom(role, rules, roomId);
}

/** The level of a room's devices that have no rule of their own (null: unassigned devices). */
export function levelOfRoom(role: Role, rules: RuleSet, roomId: string | null): AccessLevel {
  if (role === 'admin') return 'control';
  const room = roomId === null ? undefined : rules.rooms.get(roomId);
  return room ?? defaultLevel(role);
}

/** Whether nothing narrows the role's default of control: the stream's fast path. */
export const controlsEverything = (role: Role, rules: RuleSet): boolean =>
  role === 'admin' ||
  (defaultLevel(role) === 'control' && rules.rooms.size === 0 && rules.devices.size === 0);

/** Whether the account may view some device: the stream lets it connect. */
export function mayViewSomething(role: Role, rules: RuleSet): boolean {
  if (defaultLevel(role) !== 'none' || role === 'admin') return true;
  for (const level of rules.rooms.values()) if (level !== 'none') return true;
  for (const level of rules.devices.values()) if (level !== 'none') return true;
  return false;
}

interface Person {
  id: string;
  role: Role;
}

/**
 * May the caller change the target's rules? Admins change anyone's but an admin's (admins always
 * control everything); residents only `user` accounts', never their own; a `user` nobody's.
 */
export function editDenial(caller: Person, target: Person): string | undefined {
  if (caller.role === 'user') return E.forbidden;
  if (target.role === 'admin') return E.adminRules;
  if (caller.role === 'admin') return undefined;
  if (caller.id === target.id) return E.ownRules;
  if (target.role !== 'user') return E.residentEdits;
  return undefined;
}

/** May the caller read the target's rules? Their own, and those of whoever they may change; admins anyone's. */
export function readDenial(caller: Person, target: Person): string | undefined {
  if (caller.id === target.id || caller.role === 'admin') return undefined;
  return editDenial(caller, target);
}

/** An account as the granting rule sees it: its role and its rules. */
export interface Account {
  role: Role;
  rules: RuleSet;
}

/** Where each device of the registry is: its room, or null. */
export type Placement = ReadonlyMap<string, string | null>;

const lower = (a: AccessLevel, b: AccessLevel): AccessLevel => (accessAtLeast(a, b) ? b : a);
const above = (a: AccessLevel, b: AccessLevel) => !accessAtLeast(b, a);

/** What a change gives beyond the granter: the room or device whose rule does it. */
export type Beyond = { room: string } | { device: string };

/**
 * docs/access.md#granting: nobody gives more than they have. Of a change of the target's rules
 * from `before` to `after`, the first room or device where the target gets a level above what it
 * had and above the granter's own; undefined when there is none. A device that gains through its
 * room's rule names the room. Keeping what the target had (an admin's grant) is no grant.
 */
export function firstBeyond(
  role: Role,
  before: RuleSet,
  after: RuleSet,
  granter: Account,
  placement: Placement,
): Beyond | undefined {
  for (const room of new Set([...before.rooms.keys(), ...after.rooms.keys()])) {
    const now = levelOfRoom(role, after, room);
    if (
      above(now, levelOfRoom(role, before, room)) &&
      above(now, levelOfRoom(granter.role, granter.rules, room))
    )
      return { room };
  }
  for (const [device, room] of placement) {
    const now = levelOf(role, after, device, room);
    if (!above(now, levelOf(role, before, device, room))) continue;
    if (!above(now, levelOf(granter.role, granter.rules, device, room))) continue;
    return after.devices.has(device) || room === null ? { device } : { room };
  }
  return undefined;
}

/**
 * docs/access.md#granting: the target's rules for its new `role`, capped at the granter's: on
 * every room and device the lower of what the target would have with its rules kept and what the
 * granter has, so a promotion by a narrowed resident carries the narrowing. Entries the target had
 * stay (lowered); others are added only where they narrow. The granter is a resident (a `user`
 * changes nobody's role; admins are not capped), whose default is at least any role's.
 */
export function cappedRules(role: Role, target: RuleSet, granter: Account, placement: Placement): RuleSet {
  const rooms = new Map<string, AccessLevel>();
  for (const room of new Set([...target.rooms.keys(), ...granter.rules.rooms.keys()])) {
    const level = lower(levelOfRoom(role, target, room), levelOfRoom(granter.role, granter.rules, room));
    if (target.rooms.has(room) || level !== defaultLevel(role)) rooms.set(room, level);
  }
  const capped: RuleSet = { rooms, devices: new Map() };
  const devices = capped.devices as Map<string, AccessLevel>;
  for (const device of new Set([...target.devices.keys(), ...granter.rules.devices.keys()])) {
    const room = placement.get(device) ?? null;
    const level = lower(
      levelOf(role, target, device, room),
      levelOf(granter.role, granter.rules, device, room),
    );
    if (target.devices.has(device) || level !== levelOfRoom(role, capped, room)) devices.set(device, level);
  }
  return capped;
}

/** What a caller sees of the household: the rooms and devices whose rules it may read and change. */
export interface RuleSight {
  room(id: string): boolean;
  device(id: string): boolean;
}

/**
 * docs/access.md#what-a-caller-sees: the rooms and devices of the household a narrowed account
 * sees, as GET /api/rooms and the device list show them: a device when its level is above `none`
 * (where the registry has it, removed ones too); a room when its level on the room is, or a
 * listed device in it is visible.
 */
export function ruleSight(
  account: Account,
  placement: Placement,
  listed: (id: string) => boolean,
): RuleSight {
  const { role, rules } = account;
  const device = (id: string) => levelOf(role, rules, id, placement.get(id) ?? null) !== 'none';
  const occupied = new Set<string>();
  for (const [id, room] of placement) if (room !== null && listed(id) && device(id)) occupied.add(room);
  return { device, room: (id) => occupied.has(id) || levelOfRoom(role, rules, id) !== 'none' };
}

/** The rules as the caller sees them: entries on rooms and devices hidden from it left out. */
export function seenRules(rules: RuleSet, sees: RuleSight): RuleSet {
  return {
    rooms: new Map([...rules.rooms].filter(([id]) => sees.room(id))),
    devices: new Map([...rules.devices].filter(([id]) => sees.device(id))),
  };
}

/**
 * A change by a caller who sees only part of the household: what it sent in place of what it
 * sees, the entries on what is hidden from it kept as they were.
 */
export function withHidden(before: RuleSet, sent: RuleSet, sees: RuleSight): RuleSet {
  return {
    rooms: new Map([...[...before.rooms].filter(([id]) => !sees.room(id)), ...sent.rooms]),
    devices: new Map([...[...before.devices].filter(([id]) => !sees.device(id)), ...sent.devices]),
  };
}

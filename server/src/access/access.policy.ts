import { type AccessLevel, ROLE_DEFAULT_ACCESS, type Role } from '@hearth/contracts';
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

import { type AccessLevel, type Device, isManager, ROLE_DEFAULT_ACCESS } from '@hearth/contracts';
import type { UserRecord } from '../users/index.js';

/**
 * docs/access.md#reach: what one caller (a signed-in account, or a guest pass) may do with each
 * device. The hub asks it on every call and the stream on every message it forwards to a
 * filtered connection, so `levelOf` is synchronous and cheap. Built by the access domain for
 * accounts and by the passes domain for passes.
 */
export interface Reach {
  /** The caller's level on a device the hub lists (its own rule, else its room's, else the default). */
  levelOf(deviceId: string): AccessLevel;
  /** The caller's level on a room's devices that have no rule of their own (null: unassigned ones). */
  levelOfRoom(roomId: string | null): AccessLevel;
  /**
   * Control over every device, with nothing filtered: residents and admins without rules. Their
   * stream takes the fast path (the same bytes for all of them, no per-message check).
   */
  readonly everything: boolean;
  /** Whether it may view some device at all: a stream connection needs it. */
  readonly any: boolean;
  /** Names this reach's rules, so that two callers with the same rules share a list's ETag. */
  readonly tag: string;
}

/** Who is behind a stream connection or a call: a person, a guest pass, or an API token acting for its owner. */
export type Principal =
  | { kind: 'user'; user: UserRecord }
  | { kind: 'pass'; passId: string; label: string }
  | { kind: 'api'; tokenId: string; label: string; owner: { id: string; label: string } };

/** Where the hub gets a signed-in account's reach, and hears that some accounts' reach changed. */
export interface ReachSource {
  /** The account's reach now: its role (as given) and its rules. */
  reachOf(user: Pick<UserRecord, 'id' | 'role'>): Promise<Reach>;
  /**
   * `userIds`: the accounts whose rules changed (their open streams follow within 2 s). A listener
   * may answer a promise that settles once it has followed (a deleted room waits for it).
   */
  onChange(listener: (userIds: readonly string[]) => void | Promise<void>): () => void;
}

/** Control over everything (admins; residents without rules). */
export const EVERYTHING: Reach = {
  levelOf: () => 'control',
  levelOfRoom: () => 'control',
  everything: true,
  any: true,
  tag: 'all',
};

/** Nothing at all. */
export const NOTHING: Reach = {
  levelOf: () => 'none',
  levelOfRoom: () => 'none',
  everything: false,
  any: false,
  tag: 'none',
};

/** Without access rules (a hub built without the access domain): the role's default. */
export const roleReach: ReachSource = {
  reachOf: async (user) => (ROLE_DEFAULT_ACCESS[user.role] === 'control' ? EVERYTHING : NOTHING),
  onChange: () => () => {},
};

/** Whether the role may rename devices and assign rooms (with `control` of them). */
export const mayManageDevices = (user: UserRecord): boolean => isManager(user.role);

/** What a person sees of the household, as GET /api/rooms and the device list show it. */
export interface Sight {
  device(id: string): boolean;
  room(id: string): boolean;
}

/**
 * docs/access.md#where-it-is-enforced: a device when the reach's level on it is above `none`; a
 * room when its level on the room is, or it holds a device the reach may view. Everything for a
 * reach without rules. (Passes, scenes and automations hide what names anything else.)
 */
export function sightOf(reach: Reach, visible: (reach: Reach) => Device[]): Sight {
  if (reach.everything) return { device: () => true, room: () => true };
  const occupied = new Set<string>();
  for (const device of visible(reach)) if (device.room_id) occupied.add(device.room_id);
  return {
    device: (id) => reach.levelOf(id) !== 'none',
    room: (id) => occupied.has(id) || reach.levelOfRoom(id) !== 'none',
  };
}

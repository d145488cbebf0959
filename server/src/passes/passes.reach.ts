import type { Device, PassLevel, Role } from '@hearth/contracts';
import { isManager } from '@hearth/contracts';
import type { PassRecord } from './passes.repository.js';

/** What a caller may do with a device: nothing, look, or control (docs/passes.md#what-a-pass-covers). */
export type Level = 'none' | PassLevel;

/** A caller's reach: synchronous and cheap, asked once per device (and per stream message). */
export interface Reach {
  levelOf(deviceId: string): Level;
}

/** The most a pass's creator may do with each device, as they are now. */
export type CreatorReach = (creator: { id: string; role: Role }) => Promise<Reach>;

/** Without access rules: residents and admins control everything, others nothing (docs/roles.md). */
export const roleReach: CreatorReach = async (creator) => {
  const level: Level = isManager(creator.role) ? 'control' : 'none';
  return { levelOf: () => level };
};

const RANK: Record<Level, number> = { none: 0, view: 1, control: 2 };
export const lower = (a: Level, b: Level): Level => (RANK[a] <= RANK[b] ? a : b);
export const atLeast = (level: Level, wanted: Level): boolean => RANK[level] >= RANK[wanted];

/**
 * A pass's reach: its devices, and the devices now in its rooms, at the pass's level, never
 * beyond what its creator may do with them now. Rooms are read from the hub's devices when asked,
 * so a device moved into a pass's room is covered from then on.
 */
export function passReach(
  pass: Pick<PassRecord, 'level' | 'rooms' | 'devices'>,
  creator: Reach,
  roomOf: (deviceId: string) => string | null | undefined,
): Reach {
  const devices = new Set(pass.devices);
  const rooms = new Set(pass.rooms);
  return {
    levelOf(deviceId) {
      if (!devices.has(deviceId)) {
        const room = roomOf(deviceId);
        if (!room || !rooms.has(room)) return 'none';
      }
      return lower(pass.level, creator.levelOf(deviceId));
    },
  };
}

/** The devices of `all` a reach may view, each with its level. */
export const reachable = (all: Iterable<Device>, reach: Reach): (Device & { access: PassLevel })[] => {
  const out: (Device & { access: PassLevel })[] = [];
  for (const device of all) {
    const level = reach.levelOf(device.id);
    if (level !== 'none') out.push({ ...device, access: level });
  }
  return out;
};

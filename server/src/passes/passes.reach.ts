import { type AccessLevel, accessAtLeast } from '@hearth/contracts';
import type { Reach } from '../devicehub/index.js';
import type { PassRecord } from './passes.repository.js';

/** The most a pass's creator may do with each device now (their access rules), by their account id. */
export type CreatorReach = (creatorId: string) => Promise<Reach>;

/** The lower of two levels. */
export const lower = (a: AccessLevel, b: AccessLevel): AccessLevel => (accessAtLeast(a, b) ? b : a);

/**
 * docs/passes.md#what-a-pass-covers: a pass's reach. Its devices, and the devices in its rooms when
 * asked (a device moved into a pass's room is covered from then on), at the pass's level, never
 * beyond what its creator may do with them now.
 */
export function passReach(
  pass: Pick<PassRecord, 'id' | 'level' | 'rooms' | 'devices'>,
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
    levelOfRoom(roomId) {
      return roomId !== null && rooms.has(roomId) ? lower(pass.level, creator.levelOfRoom(roomId)) : 'none';
    },
    everything: false,
    any: devices.size + rooms.size > 0 && creator.any,
    tag: `pass:${pass.id}:${creator.tag}`,
  };
}

import { type AccessLevel, accessAtLeast } from '@hearth/contracts';
import type { DeviceGate, Reach } from '../devicehub/index.js';
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

/** What a manager sees of the household (docs/passes.md#who-sees-which-passes); everything without rules. */
export interface PassSight {
  device(id: string): boolean;
  room(id: string): boolean;
}

/**
 * As GET /api/rooms shows them (docs/access.md#where-it-is-enforced): a device when the reach's
 * level on it is above `none`; a room when its level on the room is, or it holds a device the
 * reach may view.
 */
export function passSight(reach: Reach, visible: DeviceGate['visible']): PassSight {
  if (reach.everything) return { device: () => true, room: () => true };
  const occupied = new Set<string>();
  for (const device of visible(reach)) if (device.room_id) occupied.add(device.room_id);
  return {
    device: (id) => reach.levelOf(id) !== 'none',
    room: (id) => occupied.has(id) || reach.levelOfRoom(id) !== 'none',
  };
}

/** Whether the viewer sees every room and device a pass names: else the pass is not theirs to see. */
export const seesPass = (pass: Pick<PassRecord, 'rooms' | 'devices'>, sees: PassSight): boolean =>
  pass.rooms.every((id) => sees.room(id)) && pass.devices.every((id) => sees.device(id));

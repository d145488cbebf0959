import { type AccessLevel, accessAtLeast } from '@hearth/contracts';
import { type DeviceGate, type Reach, type Sight, sightOf } from '../devicehub/index.js';
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

/** What the viewer sees of the household (docs/access.md#where-it-is-enforced). */
export type PassSight = Sight;

/** As GET /api/rooms shows them: devicehub's sight of the reach. */
export const passSight = (reach: Reach, visible: DeviceGate['visible']): PassSight => sightOf(reach, visible);

/** Whether the viewer sees every room and device a pass names: else the pass is not theirs to see. */
export const seesPass = (pass: Pick<PassRecord, 'rooms' | 'devices'>, sees: PassSight): boolean =>
  pass.rooms.every((id) => sees.room(id)) && pass.devices.every((id) => sees.device(id));

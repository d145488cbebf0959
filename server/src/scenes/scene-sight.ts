import type { Device, Scene } from '@hearth/contracts';
import type { Reach } from '../devicehub/index.js';

/** What a person sees of the household, as GET /api/rooms and the device list show it. */
export interface Sight {
  device(id: string): boolean;
  room(id: string): boolean;
}

/**
 * docs/automations.md#who: a device when the reach's level on it is above `none`; a room when its
 * level on the room is, or it holds a device the reach may view (docs/access.md#where-it-is-enforced).
 * Everything for a reach without rules.
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

/** Whether a scene names nothing hidden: its room and every target's device are seen. */
export const seesScene = (scene: Pick<Scene, 'room_id' | 'targets'>, sees: Sight): boolean =>
  (scene.room_id === null || sees.room(scene.room_id)) &&
  scene.targets.every((target) => sees.device(target.device_id));

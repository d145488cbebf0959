import type { Scene } from '@hearth/contracts';
import type { Sight } from '../devicehub/index.js';

export { type Sight, sightOf } from '../devicehub/index.js';

/** Whether a scene names nothing hidden: its room and every target's device are seen. */
export const seesScene = (scene: Pick<Scene, 'room_id' | 'targets'>, sees: Sight): boolean =>
  (scene.room_id === null || sees.room(scene.room_id)) &&
  scene.targets.every((target) => sees.device(target.device_id));

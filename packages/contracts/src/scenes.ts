/** Wire shapes of scenes (docs/automations.md#scenes), shared by server and web app. */

import type { DeviceState } from './devicehub.js';

/** One device's target in a scene: the state as a command body carries it (docs/api.md#devices). */
export interface SceneTarget {
  device_id: string;
  state: DeviceState;
}

/** A scene as GET /api/scenes lists it. */
export interface Scene {
  id: string;
  name: string;
  /** A room icon name (`ROOM_ICONS`), or null. */
  icon: string | null;
  room_id: string | null;
  targets: SceneTarget[];
}

/** GET /api/scenes */
export interface SceneList {
  scenes: Scene[];
}

/** One device's outcome of POST /api/scenes/{id}/apply. */
export interface SceneResult {
  device_id: string;
  status: 'sent' | 'failed';
  error?: string;
}

/** POST /api/scenes/{id}/apply */
export interface SceneApplied {
  results: SceneResult[];
}

/** Most targets a scene holds. */
export const SCENE_MAX_TARGETS = 500;
/** Scene names: trimmed, 1 to this many characters. */
export const SCENE_NAME_MAX_LENGTH = 64;
/** Commands a scene sends per second at most (docs/automations.md#scenes). */
export const SCENE_COMMANDS_PER_SECOND = 50;

/**
 * `events/scene.changed` on the device stream: a scene was created, changed or deleted (residents
 * and admins only); pages read the list again.
 */
export interface SceneChangedEvent {
  id: string;
  removed: boolean;
}

export const sceneTopics = { changed: 'events/scene.changed' } as const;

import type { Scene, SceneApplied, SceneList } from '@hearth/contracts';
import { api } from '../../shared/api/client.js';

/** docs/automations.md#scenes: the calls of the scene buttons. */
export const scenesApi = {
  list: () => api.get<SceneList>('/api/scenes'),
  apply: (id: string) => api.post<SceneApplied>(`/api/scenes/${encodeURIComponent(id)}/apply`),
  capture: (body: { name: string; device_ids: string[]; room_id?: string | null }) =>
    api.post<Scene>('/api/scenes/capture', body),
  remove: (id: string) => api.delete<null>(`/api/scenes/${encodeURIComponent(id)}`),
};

import type {
  Automation,
  AutomationList,
  AutomationRuns,
  Device,
  HouseholdLocation,
  Scene,
  SceneList,
} from '@hearth/contracts';
import { api } from '../../shared/api/client.js';

/** The body POST and PATCH /api/automations take (docs/automations.md#api). */
export type AutomationBody = Pick<
  Automation,
  'name' | 'enabled' | 'mode' | 'catch_up' | 'triggers' | 'conditions' | 'actions'
>;

/** docs/automations.md#api: the calls of the Automations page. */
export const automationsApi = {
  list: (cursor?: string) => api.get<AutomationList>('/api/automations', { cursor }),
  get: (id: string) => api.get<Automation>(`/api/automations/${encodeURIComponent(id)}`),
  create: (body: AutomationBody) => api.post<Automation>('/api/automations', body),
  update: (id: string, body: Partial<AutomationBody>) =>
    api.patch<Automation>(`/api/automations/${encodeURIComponent(id)}`, body),
  remove: (id: string) => api.delete<null>(`/api/automations/${encodeURIComponent(id)}`),
  run: (id: string) =>
    api.post<{ run_id: string | null; status: string }>(`/api/automations/${encodeURIComponent(id)}/run`),
  runs: (id: string) => api.get<AutomationRuns>(`/api/automations/${encodeURIComponent(id)}/runs`),
  location: () => api.get<HouseholdLocation>('/api/automations/location'),
  devices: () => api.get<Device[]>('/api/devicehub/devices'),
  scenes: () => api.get<SceneList>('/api/scenes'),
  people: () =>
    api.get<{ users: { id: string; first_name?: string; last_name?: string; email: string }[] }>(
      '/api/auth/users',
      { page: 1, page_size: 100 },
    ),
};

export type { Scene };

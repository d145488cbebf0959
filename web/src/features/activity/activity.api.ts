import type { ActivityPage, Device, RoomsResponse, UsersPage } from '@hearth/contracts';
import { api } from '../../shared/api/client.js';
import { type ActivityFilters, apiQuery } from './activity.filters.js';

/** docs/activity.md#api: the calls of the Activity page. */
export const activityApi = {
  page: (filters: ActivityFilters, cursor: string | null, now: number) =>
    api.get<ActivityPage>('/api/activity', { ...apiQuery(filters, now), cursor: cursor ?? undefined }),
  /** For the filters' names (residents and admins; others get 403 and see ids). */
  people: () => api.get<UsersPage>('/api/auth/users', { page: 1, page_size: 100 }),
  devices: () => api.get<Device[]>('/api/devicehub/devices'),
  rooms: () => api.get<RoomsResponse>('/api/rooms'),
};

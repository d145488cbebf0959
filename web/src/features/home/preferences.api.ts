import type { Preferences } from '@hearth/contracts';
import { api } from '../../shared/api/client.js';

/** docs/api.md#preferences: the signed-in person's own settings of the app. */
export const preferencesApi = {
  get: () => api.get<Preferences>('/api/auth/preferences'),
  change: (change: Partial<Preferences>) => api.patch<Preferences>('/api/auth/preferences', change),
};

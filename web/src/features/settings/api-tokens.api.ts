import type { ApiTokenList, CreatedApiToken, NewApiToken, RoomsResponse } from '@hearth/contracts';
import { api } from '../../shared/api/client.js';

/** docs/api.md#api-tokens: Settings → API tokens' calls (wire names). */
export const apiTokensApi = {
  list: () => api.get<ApiTokenList>('/api/auth/tokens'),
  create: (token: NewApiToken) => api.post<CreatedApiToken>('/api/auth/tokens', token),
  revoke: (id: string) => api.delete(`/api/auth/tokens/${encodeURIComponent(id)}`),
  /** The rooms a token may be narrowed to: those the caller sees. */
  rooms: () => api.get<RoomsResponse>('/api/rooms'),
};

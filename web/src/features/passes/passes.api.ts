import type {
  CreatedPass,
  CreatePassRequest,
  Device,
  DeviceCallResult,
  Pass,
  PassDevice,
  PassInfo,
  PassList,
  RoomsResponse,
} from '@hearth/contracts';
import { api } from '../../shared/api/client.js';
import type { DeviceCommand } from '../devices/model/commands.js';

const pass = (token: string) => `/api/pass/${encodeURIComponent(token)}`;

/** docs/passes.md#api: the Guest passes page's calls. */
export const passesApi = {
  list: () => api.get<PassList>('/api/passes'),
  create: (body: CreatePassRequest) => api.post<CreatedPass>('/api/passes', body),
  pause: (id: string, paused: boolean) =>
    api.patch<Pass>(`/api/passes/${encodeURIComponent(id)}`, { paused }),
  revoke: (id: string) => api.delete<unknown>(`/api/passes/${encodeURIComponent(id)}`),
  /** For the pickers' names. */
  devices: () => api.get<Device[]>('/api/devicehub/devices'),
  rooms: () => api.get<RoomsResponse>('/api/rooms'),
};

/** docs/passes.md#api: the guest's page's calls, with the token alone. */
export const guestApi = {
  info: (token: string) => api.get<PassInfo>(pass(token)),
  devices: (token: string) => api.get<PassDevice[]>(`${pass(token)}/devices`),
  command: (token: string, id: string, command: DeviceCommand) =>
    api.post<DeviceCallResult<unknown>>(`${pass(token)}/devices/${encodeURIComponent(id)}/commands`, command),
};

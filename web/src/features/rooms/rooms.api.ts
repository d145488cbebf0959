import type {
  AssignDevicesResponse,
  CreateFloorRequest,
  CreateRoomRequest,
  Favourites,
  Floor,
  Room,
  RoomsResponse,
  UpdateFloorRequest,
  UpdateRoomRequest,
} from '@hearth/contracts';
import { type ApiResult, api } from '../../shared/api/client.js';

/** docs/rooms.md#api, every call through the shared client (result wrapper, never throws). */
const room = (id: string) => `/api/rooms/${encodeURIComponent(id)}`;
const floor = (id: string) => `/api/floors/${encodeURIComponent(id)}`;

export const fetchRooms = (): Promise<ApiResult<RoomsResponse>> => api.get<RoomsResponse>('/api/rooms');
export const createRoom = (body: CreateRoomRequest) => api.post<Room>('/api/rooms', body);
export const updateRoom = (id: string, body: UpdateRoomRequest) => api.patch<Room>(room(id), body);
export const deleteRoom = (id: string) => api.delete<unknown>(room(id));

export const createFloor = (body: CreateFloorRequest) => api.post<Floor>('/api/floors', body);
export const updateFloor = (id: string, body: UpdateFloorRequest) => api.patch<Floor>(floor(id), body);
export const deleteFloor = (id: string) => api.delete<unknown>(floor(id));

/** PUT /api/rooms/{id}/devices, or with null PUT /api/rooms/unassigned/devices. */
export const assignDevices = (roomId: string | null, deviceIds: string[]) =>
  api.put<AssignDevicesResponse>(`${roomId === null ? '/api/rooms/unassigned' : room(roomId)}/devices`, {
    device_ids: deviceIds,
  });

export const fetchFavourites = () => api.get<Favourites>('/api/favourites');
export const saveFavourites = (deviceIds: string[]) =>
  api.put<Favourites>('/api/favourites', { device_ids: deviceIds } satisfies Favourites);

import type { AssignDevicesResponse, CreateRoomRequest, Room } from '@hearth/contracts';
import type { ApiResult } from '../../shared/api/client.js';
import { roomNamed } from './rooms-state.js';

/** The two calls assignment needs (rooms.api.ts in the app, fakes in tests). */
export interface AssignApi {
  createRoom(body: CreateRoomRequest): Promise<ApiResult<Room>>;
  assignDevices(roomId: string | null, deviceIds: string[]): Promise<ApiResult<AssignDevicesResponse>>;
}

/** Where devices go: a room, "Unassigned" (null), or a room to create first by name. */
export type AssignTarget = { roomId: string | null } | { newRoom: string };

/**
 * docs/rooms.md#assignment from the page: one PUT for every device given, after creating the
 * room when the target is a new one. Resolves with the error message, or null when it worked.
 */
export async function moveDevices(api: AssignApi, target: AssignTarget, deviceIds: string[]) {
  if (deviceIds.length === 0) return null;
  let roomId: string | null;
  if ('newRoom' in target) {
    const created = await api.createRoom({ name: target.newRoom.trim() });
    if (!created.success) return created.error ?? 'Could not create the room';
    roomId = created.data.id;
  } else {
    roomId = target.roomId;
  }
  const moved = await api.assignDevices(roomId, deviceIds);
  return moved.success ? null : (moved.error ?? 'Could not move the devices');
}

export interface SuggestionGroup {
  /** The room's name as the suggestion spells it (the first device's, when they differ in case). */
  name: string;
  /** The existing room of that name (case-insensitively), null when it has to be created. */
  room: Room | null;
  deviceIds: string[];
}

/** docs/rooms.md#suggestions: the suggested devices grouped by room name, ignoring case, in the devices' order. */
export function suggestionGroups(
  devices: Iterable<{ id: string | null; suggestedRoom: string | null }>,
  rooms: Room[],
): SuggestionGroup[] {
  const groups = new Map<string, SuggestionGroup>();
  for (const device of devices) {
    const name = device.suggestedRoom?.trim();
    if (!device.id || !name) continue;
    const key = name.toLocaleLowerCase();
    const group = groups.get(key) ?? { name, room: roomNamed(rooms, name), deviceIds: [] };
    group.deviceIds.push(device.id);
    groups.set(key, group);
  }
  return [...groups.values()];
}

/** Accepts a group: into its room, or a new room of its name. */
export const acceptGroup = (api: AssignApi, group: SuggestionGroup) =>
  moveDevices(api, group.room ? { roomId: group.room.id } : { newRoom: group.name }, group.deviceIds);

/**
 * "Accept all suggestions": one call per room (and one creation per missing room), one room at a
 * time. Resolves with the failures' messages, each naming its room.
 */
export async function acceptAll(api: AssignApi, groups: SuggestionGroup[]) {
  const failed: string[] = [];
  for (const group of groups) {
    const error = await acceptGroup(api, group);
    if (error) failed.push(`${group.name}: ${error}`);
  }
  return failed;
}

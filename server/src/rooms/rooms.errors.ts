import { ROOM_NAME_MAX_LENGTH } from '@hearth/contracts';

/** Every message rooms, floors and favourites answer with (docs/rooms.md#errors); asserted in tests. */
export const ROOMS_ERRORS = {
  roomNotFound: 'Room not found',
  floorNotFound: 'Floor not found',
  unknownFloor: 'Unknown floor',
  unknownIcon: 'Unknown icon',
  nameRequired: 'Name is required',
  nameTooLong: `Name must be at most ${ROOM_NAME_MAX_LENGTH} characters`,
  order: 'order must be a whole number, 0 or more',
  floorId: 'floor_id must be a floor id or null',
  deviceIds: 'device_ids must be a list of device ids',
  tooManyDevices: 'device_ids lists too many devices',
  repeatedDevice: 'device_ids lists a device twice',
  unknownDevice: (id: string) => `Unknown device: ${id}`,
  roomExists: (name: string, onFloor: boolean) =>
    onFloor
      ? `A room named "${name}" already exists on this floor`
      : `A room named "${name}" already exists without a floor`,
  floorExists: (name: string) => `A floor named "${name}" already exists`,
  deleteNeedsControl: 'You may only delete a room if you control every device in it',
  floorNeedsControl: 'You may only delete a floor if you control every room on it',
  floorRoomClash: (name: string) =>
    `The floor cannot be deleted: its room "${name}" has the name of a room without a floor`,
} as const;

import { SCENE_MAX_TARGETS } from '@hearth/contracts';

/** Every message scenes answer with (docs/automations.md#scenes); asserted in tests. */
export const SCENES_ERRORS = {
  notFound: 'Scene not found',
  name: 'name must be 1 to 64 characters',
  icon: 'icon must be one of the room icons',
  roomId: 'room_id must be a room id or null',
  unknownRoom: (id: string) => `Unknown room: ${id}`,
  targets: `targets must be a list of 1 to ${SCENE_MAX_TARGETS} {device_id, state}`,
  deviceIds: `device_ids must be a list of 1 to ${SCENE_MAX_TARGETS} device ids`,
  repeated: (id: string) => `A device is listed twice: ${id}`,
  unknownDevice: (id: string) => `Unknown device: ${id}`,
  viewOnly: (device: string) => `You may only view ${device}, not control it`,
  unknownProperty: (device: string, property: string) => `Unknown property of ${device}: ${property}`,
  notWritable: (device: string, property: string) => `${property} of ${device} cannot be set`,
  nothingToCapture: 'None of these devices has a value that can be set',
  state: 'state must be an object of 1 to 50 properties and values',
  deviceRemoved: 'Device removed',
  timeout: 'No answer within 10 s',
} as const;

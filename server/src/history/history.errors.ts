import { HISTORY_MAX_POINTS } from '@hearth/contracts';

/** Every message the history API answers with (docs/history.md#api, docs/strings.md); asserted in tests. */
export const HISTORY_ERRORS = {
  deviceNotFound: 'Device not found',
  propertyNotFound: 'Property not found',
  deviceId: 'device_id is required',
  property: 'property is required',
  from: 'from must be an ISO-8601 time or epoch milliseconds',
  to: 'to must be an ISO-8601 time or epoch milliseconds',
  range: 'from must be before to',
  points: `points must be a whole number from 2 to ${HISTORY_MAX_POINTS}`,
  exclusionDevice: 'device must be true or false',
  exclusionProperties: 'properties must be a list of property names',
  /** docs/access.md#messages: recording settings need `control` of the device. */
  viewOnly: 'You may only view this device, not control it',
} as const;

/** Every message the device hub answers with (docs/strings.md#devices where the spec names one). */
export const DevicehubMessages = {
  invalidCommand: 'Invalid command payload',
  /** the message of docs/strings.md#devices, then which value the device can't take and why. */
  invalidValue: (path: string, reason: string) => `Invalid command payload: ${path} ${reason}`,
  missingCommand: 'Missing command payload',
  missingDeviceId: 'Missing device id',
  emptyName: 'Name cannot be empty',
  invalidName: 'Name cannot contain "#", "+" or control characters, or be longer than 128 characters',
  deviceNotFound: 'Device not found',
  renameTimeout: 'Zigbee2MQTT did not answer the rename in time',
  renameFailed: 'Unable to rename device',
  busDown: 'Device bus is not connected',
  invalidFirst: 'first must be a whole number from 1 to 500',
  invalidIds: 'ids must be 1 to 100 device ids, comma-separated',
  firstOrIds: 'Give first or ids, not both',
  /** Zigbee2MQTT's `bridge/state` is offline: nobody would carry a command out. */
  bridgeOffline: 'Device bridge offline',
  /** POST /api/devicehub/commands (docs/devicehub.md#commands-to-several-devices). */
  invalidCommands: 'commands must be a list of 1 to 500 commands, each with a device_id',
  /** A bulk command's reason in the activity log: its state did not confirm it in time. */
  notResponding: 'Not responding',
  /** A bulk command's reason in the activity log: not sent, the device is offline. */
  offline: 'Offline',
  /** A Shelly device answered a command's RPC with an error (docs/devicehub.md#shelly-mapping). */
  deviceRefused: (message: string) => `The device refused the command: ${message}`,
  /** A Shelly device did not answer a command's RPC in time. */
  deviceTimeout: 'The device did not answer the command in time',
  /** Too many RPCs are waiting for their answers. */
  deviceBusy: 'Too many commands are waiting for their devices; try again shortly',
  /** A firmware update's Install by anyone but an admin (docs/devicehub.md#capability). */
  adminsInstall: 'Only admins may install updates',
} as const;

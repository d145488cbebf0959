/** docs/screens.md#devices-page and docs/strings.md#devices: every text the Devices page shows, in one place. */
export const MESSAGES = {
  noPermission: 'You do not have permission to view this page.',
  title: 'Devices',
  subtitle: 'Live inventory sourced from the Device Hub over MQTT/WebSocket',
  connecting: 'Connecting to Device Hub…',
  empty: 'No devices discovered yet. Start pairing to see devices show up here.',
  stateConnected: 'State: connected',
  stateOffline: 'State stream offline',
  metadataOffline: 'Metadata stream offline',
  listFailed: 'Unable to load device list',
  invalidList: 'invalid device list payload',
  streamFailed: 'Unable to connect to device stream',
  notConnectedCommands: 'Not connected to device command channel',
  notConnectedRename: 'Not connected to rename channel',
  invalidCommand: 'Invalid command payload',
  missingCommand: 'Missing command payload',
  missingDeviceId: 'Missing device id',
  emptyName: 'Name cannot be empty',
  commandFailed: 'Unable to send command',
  deviceCommandFailed: 'Unable to send device command',
  renameFailed: 'Unable to rename device',
  renameNeedsAuth: 'Authentication required to rename device',
  renameNotReady: 'Device not ready for rename',
  updating: 'Updating…',
  // Composite and list controls (beyond docs/screens.md#devices-page's; the colour picker's words where they match).
  editGroup: 'Edit',
  closeGroup: 'Close',
  cancel: 'Cancel',
  apply: 'Apply',
  add: 'Add',
  remove: 'Remove',
} as const;

export const busOfflineSince = (time: string) => `Device bus offline since ${time}`;

export const busHoldsMessagesBack = (ms: number) =>
  `The MQTT broker holds messages back (${ms} ms per round trip). With Mosquitto, add "set_tcp_nodelay true" to its configuration.`;
/** Zigbee2MQTT's bridge/state is offline (commands answer 503 with the same words). */
export const BRIDGE_OFFLINE = 'Device bridge offline';

export const requestFailed = (status: number) => `request failed with status ${status}`;

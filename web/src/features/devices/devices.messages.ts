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
  // Rooms and favourites on the tile (docs/rooms.md#on-the-devices-page, docs/strings.md#rooms-on-the-devices-page).
  unassigned: 'Unassigned',
  newRoom: 'New room…',
  roomName: 'Room name',
  createRoom: 'Create',
  select: 'Select',
  selectAllShown: 'Select all shown',
  moveToRoom: 'Move to room',
  accept: 'Accept',
  dragHint:
    'Drag onto a room to move it there. With the keyboard, use its room menu, or Select and then Move to room.',
  dropOnRoom: 'Drop on a room',
} as const;

/** The favourite star's accessible name: it names the device, as home's card does. */
export const favouriteLabel = (starred: boolean, name: string) =>
  starred ? `Remove ${name} from favourites` : `Add ${name} to favourites`;

/** docs/strings.md#device-tile: the tile's menu and what it holds beyond the room and the star. */

/**
 * docs/strings.md#devices-of-other-sources: an action's word on its button (a vacuum's, an alarm
 * panel's, a button's); other actions are humanised.
 */
export const ACTION_WORDS: Readonly<Record<string, string>> = {
  activate: 'Activate',
  arm_away: 'Arm away',
  arm_custom_bypass: 'Arm custom bypass',
  arm_home: 'Arm home',
  arm_night: 'Arm night',
  arm_vacation: 'Arm vacation',
  clean_spot: 'Spot clean',
  disarm: 'Disarm',
  install: 'Install',
  locate: 'Locate',
  pause: 'Pause',
  press: 'Press',
  return_to_base: 'Dock',
  start: 'Start',
  stop: 'Stop',
  trigger: 'Trigger',
};

/** docs/strings.md#devices-of-other-sources: the other sources' controls. */
export const SOURCE_TEXTS = {
  /** The select of the actions beyond the first three buttons; its first option. */
  moreActions: (label: string) => `More actions: ${label}`,
  more: 'More…',
  code: 'Code',
  codeLabel: (name: string) => `Code for ${name}`,
  /** An alarm panel's state. */
  alarm: {
    disarmed: 'Disarmed',
    armed_home: 'Armed home',
    armed_away: 'Armed away',
    armed_night: 'Armed night',
    armed_vacation: 'Armed vacation',
    armed_custom_bypass: 'Armed custom bypass',
    pending: 'Pending',
    arming: 'Arming…',
    disarming: 'Disarming…',
    triggered: 'Triggered',
  } as Readonly<Record<string, string>>,
  installed: (version: string) => `Installed ${version}`,
  latest: (version: string) => `Latest ${version}`,
  upToDate: 'Up to date',
  installing: (percent: number | null) => (percent === null ? 'Installing…' : `Installing… ${percent} %`),
  installLabel: (name: string) => `Install the update of ${name}`,
  /** An event entity: its last event and when it came. */
  lastEvent: (label: string) => label,
  /** A capability whose last value could not be read (admins, in Details). */
  errorOf: (label: string) => `${label}: could not be read`,
  /** The tile's source badge is told as this to assistive technology. */
  sourceLabel: (source: string) => `Source: ${source}`,
  /** The admins' link to the Sources page, beside the Devices page's title. */
  sources: 'Sources',
} as const;
export const TILE_TEXTS = {
  menu: (name: string) => `Options for ${name}`,
  rename: 'Rename',
  renameLabel: (name: string) => `Rename ${name}`,
  history: 'History',
  historyLabel: (name: string) => `History of ${name}`,
  favourite: 'Favourite',
  details: 'Details',
  /** The summary's Sensors figure: what it counts (docs/screens.md#page-states). */
  sensorsHint: 'Devices with at least one numeric reading (temperature, power, brightness…), lamps included',
  notResponding: 'Not responding',
  notRespondingLabel: (name: string) => `${name} is not responding`,
} as const;

/** docs/screens.md#locks: a lock's words. */
export const LOCK_TEXTS = {
  locked: 'Locked',
  unlocked: 'Unlocked',
  jammed: 'Jammed',
  locking: 'Locking…',
  unlocking: 'Unlocking…',
  open: 'Open',
  unknown: '—',
  lock: 'Lock',
  unlock: 'Unlock',
  lockLabel: (name: string) => `Lock ${name}`,
  unlockLabel: (name: string) => `Unlock ${name}`,
  confirmTitle: (name: string) => `Unlock ${name}?`,
  confirmText: 'Anyone at the door can open it once it is unlocked.',
  cancel: 'Cancel',
} as const;

/** docs/screens.md#covers: a cover's buttons, beside its position. */
export const COVER_TEXTS = { open: 'Open', stop: 'Stop', close: 'Close' } as const;

/** The tile's room button: its accessible name. */
export const roomOf = (name: string, room: string) => `Room of ${name}: ${room}`;
export const moveToRoomOf = (name: string) => `Move ${name} to room`;
export const selectDevice = (name: string) => `Select ${name}`;
export const selectedCount = (count: number) => `${count} selected`;
export const suggestedRoom = (room: string) => `Suggested: ${room}`;
export const acceptSuggestion = (name: string, room: string) => `Accept: move ${name} to ${room}`;
export const acceptAllSuggestions = (count: number) => `Accept all suggestions (${count})`;
export const movedTo = (count: number, room: string) =>
  `Moved ${count} ${count === 1 ? 'device' : 'devices'} to ${room}`;

export const busOfflineSince = (time: string) => `Device bus offline since ${time}`;

export const busHoldsMessagesBack = (ms: number) =>
  `The MQTT broker holds messages back (${ms} ms per round trip). With Mosquitto, add "set_tcp_nodelay true" to its configuration.`;
/** Zigbee2MQTT's bridge/state is offline (commands answer 503 with the same words). */
export const BRIDGE_OFFLINE = 'Device bridge offline';

export const requestFailed = (status: number) => `request failed with status ${status}`;

/** docs/strings.md#rooms-on-the-devices-page: the toolbar, the room sections and their actions. */
export const TOOLBAR = {
  label: 'Device filters',
  search: 'Search devices',
  searchHint: 'Name, model, manufacturer or room',
  room: 'Room',
  allRooms: 'All rooms',
  unassigned: 'Unassigned',
  type: 'Type',
  allTypes: 'All types',
  status: 'Status',
  anyStatus: 'Any status',
  online: 'Online',
  offline: 'Offline',
  batteryLow: 'Battery low',
  source: 'Source',
  allSources: 'All sources',
  groupByRoom: 'Group by room',
  manageRooms: 'Manage rooms',
  clearFilters: 'Clear filters',
  noMatch: 'No devices match these filters.',
  withoutFloor: 'Without a floor',
  emptyRoom: 'No devices in this room',
  allOff: 'All off',
  allOn: 'All on',
  // docs/screens.md#on-a-phone: the filters behind one button, with how many are on.
  filters: 'Filters',
  /** Told to assistive technology after "Filters" (the badge shows the number). */
  filtersOn: (count: number) => ` (${count} on)`,
} as const;

const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;

/** A room section's counts: "5 devices · 2 on · 1 offline". */
export const sectionCounts = (devices: number, on: number, offline: number) =>
  `${plural(devices, 'device', 'devices')} · ${on} on · ${offline} offline`;

/** The room action buttons' accessible names. */
export const roomActionLabel = (on: boolean, room: string) =>
  `${on ? TOOLBAR.allOn : TOOLBAR.allOff} in ${room}`;

/** While a room action runs: "Turning off… 3 of 8". */
export const roomActionProgress = (on: boolean, done: number, total: number) =>
  `Turning ${on ? 'on' : 'off'}… ${done} of ${total}`;

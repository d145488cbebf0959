/** docs/strings.md#home: the texts of the home page's favourites, room cards and examples, in one place. */
export const HOME_MESSAGES = {
  favouritesHeading: 'Favourites',
  roomsHeading: 'Rooms',
  hintBefore: 'Star devices and sort them into rooms on the ',
  hintLink: 'Devices page',
  hintAfter: ' to see them here.',
  unassigned: 'Unassigned',
  offline: 'Offline',
  allOff: 'All off',
  showDevices: 'Show devices',
  lightsOn: 'Lights and switches',
  temperature: 'Temperature',
  humidity: 'Humidity',
  // docs/screens.md#examples
  examplesHeading: 'Examples',
  hideExamples: 'Hide examples',
  showExamples: 'Show examples',
  examplesFailed: 'Failed to save your choice',
  // docs/screens.md#home: a `user` whose access rules give them nothing yet.
  noAccess: 'No devices are shared with you yet. Ask an admin for access.',
} as const;

export const moveUpLabel = (name: string) => `Move ${name} up`;
export const moveDownLabel = (name: string) => `Move ${name} down`;
export const unstarLabel = (name: string) => `Remove ${name} from favourites`;
export const roomOnCount = (count: number) => `${count} on`;
export const showRoomDevicesLabel = (room: string) => `Show devices in ${room}`;
export const allOffLabel = (room: string) => `All off in ${room}`;
export const turningOff = (done: number, total: number) => `Turning off… ${done} of ${total}`;

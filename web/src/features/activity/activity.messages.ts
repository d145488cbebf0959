import type { ActivityKind, ActivityResult } from '@hearth/contracts';

/** docs/strings.md#activity-page-texts: the Activity page's texts. */
export const ACTIVITY_MESSAGES = {
  title: 'Activity',
  subtitle: 'Who did what, and when',
  subtitleOwn: 'What you did, and when',
  filters: 'Filters',
  person: 'Person',
  room: 'Room',
  device: 'Device',
  kind: 'Kind',
  range: 'Time range',
  anyone: 'Anyone',
  anyRoom: 'Any room',
  anyDevice: 'Any device',
  // The Device filter's search (its hint is its label).
  searchDevices: 'Search devices',
  anyKind: 'Any kind',
  clear: 'Clear filters',
  exportCsv: 'Export CSV',
  empty: 'No activity matches these filters',
  loading: 'Loading activity…',
  loadMore: 'Load more',
  end: 'That is everything',
  fetchFailed: 'Failed to fetch activity',
  retry: 'Try again',
  list: 'Activity, newest first',
} as const;

export const RANGE_LABELS = {
  '': 'Any time',
  '1h': 'Last hour',
  '24h': 'Last 24 hours',
  '7d': 'Last 7 days',
  '30d': 'Last 30 days',
} as const;

export const RESULT_LABELS: Record<ActivityResult, string> = {
  ok: 'OK',
  refused: 'Refused',
  failed: 'Failed',
};

export const KIND_LABELS: Record<ActivityKind, string> = {
  'device.command': 'Device command',
  'device.rename': 'Device renamed',
  'room.create': 'Room created',
  'room.rename': 'Room renamed',
  'room.update': 'Room changed',
  'room.delete': 'Room deleted',
  'room.assign': 'Devices moved',
  'floor.create': 'Floor created',
  'floor.update': 'Floor changed',
  'floor.delete': 'Floor deleted',
  sign_in: 'Sign-in',
  'user.lock': 'Account locked',
  'user.unlock': 'Account unlocked',
  'user.role': 'Role changed',
  'access.change': 'Access changed',
  'pass.create': 'Guest pass created',
  'pass.change': 'Guest pass changed',
  'pass.revoke': 'Guest pass revoked',
  'pass.use': 'Guest pass used',
  'favourites.change': 'Favourites changed',
  'history.exclusions': 'Recording settings changed',
  'token.create': 'API token created',
  'token.revoke': 'API token revoked',
  'api.call': 'API call',
  'device.joined': 'Device joined',
  'device.left': 'Device left',
  'device.offline': 'Device went offline',
  'device.back': 'Device came back',
  'automation.notify': 'Automation notified',
  'automation.enable': 'Automation switched on or off',
  'automation.create': 'Automation created',
  'automation.update': 'Automation changed',
  'automation.delete': 'Automation deleted',
  'automation.run': 'Automation run',
  'scene.create': 'Scene created',
  'scene.update': 'Scene changed',
  'scene.delete': 'Scene deleted',
  'alert.acknowledge': 'Alert acknowledged',
  'alert.mute': 'Alerts for a device changed',
  'alert.settings': 'Alert rules changed',
  'source.forget': 'Retained config forgotten',
};

/** An API token's entries: the token's name and whose it is. */
export const API_ACTOR = (token: string, owner: string) => `${token} (API token of ${owner})`;
/** An automation's entries: its name and whose it is (docs/automations.md#activity). */
export const AUTOMATION_ACTOR = (name: string, owner: string) => `${name} (automation of ${owner})`;

/** What a guest pass was used for (`pass.use`'s `action`, docs/passes.md#activity). */
export const PASS_USES = {
  open: 'Opening the page',
  connect: 'Connecting for live updates',
} as const;

import type { AccessLevel } from '@hearth/contracts';
import type { Choice } from './access.model.js';

/** docs/strings.md#access-rules-texts: every text of the rules matrix, the device's access dialog and the role dialog. */
export const ACCESS_TEXTS = {
  usersLink: 'Access rules',
  title: 'Access rules',
  subtitle: 'Who may see and control the devices of each room',
  residentNote: 'As a resident you set the rules of user accounts.',
  back: 'Back to users',
  person: 'Person',
  matrixLabel: 'Access by person and room',
  withoutFloor: 'Without a floor',
  loading: 'Loading access rules…',
  loadFailed: 'Failed to load access rules',
  saveFailed: 'Failed to save access rules',
  noRooms: 'No rooms yet. Create rooms on the Devices page to give access by room.',
  noPeople: 'Nobody whose access you may set yet.',
  save: 'Save changes',
  saving: 'Saving…',
  discard: 'Discard changes',
  saved: 'Access rules saved',
  levels: { none: 'None', view: 'View', control: 'Control' } satisfies Record<AccessLevel, string>,
  // The device's access dialog.
  tileButton: 'Access…',
  deviceHint: 'An exception for this device only. "Same as room" follows the rules of its room.',
  deviceSaved: 'Access saved',
  cancel: 'Cancel',
  saveDevice: 'Save',
  viewOnly: 'View only',
  // A `user`'s Devices page once no device is left to them.
  nothingShared: 'No devices are shared with you at the moment.',
} as const;

export const level = (value: AccessLevel) => ACCESS_TEXTS.levels[value];

/** A matrix cell's option for "no rule": "Default (Control)". */
export const defaultOption = (fallback: AccessLevel) => `Default (${level(fallback)})`;
/** The device dialog's option for "no exception": "Same as room (View)". */
export const sameAsRoomOption = (fallback: AccessLevel) => `Same as room (${level(fallback)})`;
/** A choice as its option text. */
export const choiceText = (
  choice: Choice,
  fallback: (value: AccessLevel) => string,
  inherited: AccessLevel,
) => (choice === 'default' ? fallback(inherited) : level(choice));

/** A matrix cell's accessible name. */
export const cellLabel = (person: string, room: string) => `${person} in ${room}`;
/** A person's row in the device dialog. */
export const deviceRowLabel = (person: string, device: string) => `Access of ${person} to ${device}`;
export const deviceTitle = (device: string) => `Access to ${device}`;
/** The tile's "Access…" accessible name continues with this (hidden). */
export const tileButtonFor = (device: string) => `(who may use ${device})`;
export const unsaved = (count: number) => `${count} unsaved ${count === 1 ? 'change' : 'changes'}`;

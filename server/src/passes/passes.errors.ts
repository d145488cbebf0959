import { PASS_LABEL_MAX_LENGTH, PASS_MAX_ITEMS, PASS_MAX_WINDOWS } from '@hearth/contracts';

/** Every message guest passes answer with (docs/passes.md#errors); asserted in tests. */
export const PASSES_ERRORS = {
  /** A wrong, malformed or revoked token: one answer for all of them. */
  passNotFound: 'Pass not found',
  notYetValid: 'This pass is not valid yet',
  outsideHours: 'This pass is not valid at this time',
  expired: 'This pass has ended',
  paused: 'This pass is paused',
  deviceNotFound: 'Device not found',
  viewOnly: 'You may only view this device, not control it',
  level: 'level must be view or control',
  label: `label must be at most ${PASS_LABEL_MAX_LENGTH} characters`,
  ids: (field: string) => `${field} must be a list of ids`,
  tooMany: (field: string) => `${field} lists more than ${PASS_MAX_ITEMS} ids`,
  nothingCovered: 'Choose at least one room or device',
  unknownRoom: (id: string) => `Unknown room: ${id}`,
  unknownDevice: (id: string) => `Unknown device: ${id}`,
  beyondCreator: (id: string) => `You may not give control of what you cannot control yourself: ${id}`,
  time: (field: string) => `${field} must be an ISO-8601 time`,
  endBeforeStart: 'ends_at must be after starts_at',
  endInPast: 'ends_at must be in the future',
  whenRequired: 'Give ends_at or a weekly schedule',
  neverCloses:
    'A pass that never closes (no weekly schedule, or one covering the whole week) must end within a year of its start',
  schedule: 'schedule must be a list of {days, from, to}',
  tooManyWindows: `schedule has more than ${PASS_MAX_WINDOWS} windows`,
  days: 'days must list mon, tue, wed, thu, fri, sat or sun, at least one',
  clock: 'from and to must be times HH:MM (to may be 24:00)',
  toAfterFrom: 'to must be after from (split a window over midnight in two)',
  pausedFlag: 'paused must be true or false',
} as const;

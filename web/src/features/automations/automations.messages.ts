import type { AutomationMode, CatchUpMode, RunStatus } from '@hearth/contracts';

/** Texts of the Automations page (docs/strings.md#automations-texts). */
export const AUTOMATIONS_MESSAGES = {
  title: 'Automations',
  subtitle: 'Hearth acts on its own: at a time, at sunset, when something changes',
  newAutomation: 'New automation',
  empty: 'No automations yet. Make one: "When … If … Then …".',
  noPermission: 'Only residents and admins may use automations.',
  enabled: 'On',
  lastRun: 'Last run',
  nextRun: 'Next run',
  never: 'Never',
  none: '—',
  runNow: 'Run now',
  ran: 'Started',
  edit: 'Edit',
  delete: 'Delete',
  deleteTitle: (name: string) => `Delete “${name}”?`,
  deleteBody: 'Its runs go with it. This cannot be undone.',
  cancel: 'Cancel',
  trace: 'Runs',
  noRuns: 'It has not run yet.',
  loadMore: 'Show more',
  timeZone: (zone: string) => `Times are ${zone} time.`,
  paused: (reason: string) => `Paused: ${reason.replace(/^Paused: /, '')}`,
  saved: 'Automation saved',
  deleted: 'Automation deleted',
  // The builder, in plain words.
  builderNew: 'New automation',
  builderEdit: 'Edit automation',
  name: 'Name',
  when: 'When',
  whenHint: 'any of these happens',
  if: 'If',
  ifHint: 'all of these hold (optional)',
  thenTitle: 'Then',
  thenHint: 'in this order',
  addTrigger: 'Add a trigger',
  addCondition: 'Add a condition',
  addAction: 'Add an action',
  remove: 'Remove',
  moveUp: 'Move up',
  moveDown: 'Move down',
  save: 'Save',
  mode: 'While it runs',
  catchUp: 'If Hearth was not running at the time',
  pickDevice: 'Choose a device',
  pickProperty: 'Choose what',
  pickScene: 'Choose a scene',
  pickAutomation: 'Choose an automation',
  value: 'Value',
  becomes: 'becomes',
  changes: 'changes',
  risesAbove: 'rises above',
  fallsBelow: 'falls below',
  forAtLeast: 'for at least',
  seconds: 'seconds',
  minutes: 'minutes',
  is: 'is',
  isAbove: 'is above',
  isBelow: 'is below',
  at: 'at',
  onDays: 'on',
  everyDay: 'every day',
  between: 'between',
  and: 'and',
  offset: 'minutes before (−) or after (+)',
  household: 'everyone in the household',
  people: 'these people',
  title_: 'Title',
  body: 'Message',
  enable: 'switch on',
  disable: 'switch off',
  chosenValues: 'Set on the controls:',
  noValues: 'Choose values on the controls',
} as const;

export const TRIGGER_LABELS: Record<string, string> = {
  time: 'It is a time of day',
  cron: 'A schedule (cron)',
  sun: 'Sunrise or sunset',
  state: 'A device changes',
  event: 'A button is pressed',
  availability: 'A device goes offline or comes back',
  start: 'Hearth starts',
};

export const CONDITION_LABELS: Record<string, string> = {
  state: 'A device is …',
  time: 'It is between times',
  sun: 'The sun is up or down',
};

export const ACTION_LABELS: Record<string, string> = {
  device: 'Set a device',
  scene: 'Apply a scene',
  wait: 'Wait',
  notify: 'Notify',
  automation: 'Switch another automation on or off',
};

export const MODE_LABELS: Record<AutomationMode, string> = {
  single: 'ignore new triggers',
  restart: 'start over',
  queued: 'run them one after another',
};

export const CATCH_UP_LABELS: Record<CatchUpMode, string> = {
  skip: 'skip it',
  run_once: 'run it once when back (within an hour)',
};

export const RUN_STATUS_LABELS: Record<RunStatus, string> = {
  done: 'Done',
  failed: 'Failed',
  skipped: 'Skipped',
  missed: 'Missed',
  stopped: 'Stopped',
  running: 'Running',
  waiting: 'Waiting',
  queued: 'Queued',
};

export const RUN_STATUS_TONES: Record<RunStatus, string> = {
  done: 'tone-success',
  failed: 'tone-danger',
  skipped: 'tone-muted',
  missed: 'tone-warning',
  stopped: 'tone-warning',
  running: '',
  waiting: '',
  queued: 'tone-muted',
};

export const WEEKDAY_NAMES = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'] as const;

/** docs/strings.md#sources: every text of the admins' Sources page. */
export const SOURCES_TEXTS = {
  title: 'Sources',
  subtitle: 'Where the household’s devices come from, and what each source refused',
  back: 'Devices',
  noPermission: 'You do not have permission to view this page.',
  loading: 'Loading sources…',
  loadFailed: 'Unable to load the sources',
  refresh: 'Refresh',
  on: 'On',
  off: 'Off',
  offHint: 'Turned off in Hearth’s configuration',
  reads: (topics: string) => `Reads ${topics}`,
  devices: (count: number) => `${count} ${count === 1 ? 'device' : 'devices'}`,
  lastMessage: (when: string) => `Last message ${when}`,
  noMessage: 'No message yet',
  rejected: 'Refused configs',
  noneRejected: 'Nothing refused',
  topic: 'Topic',
  reason: 'Reason',
  when: 'When',
  forget: 'Forget',
  forgetLabel: (topic: string) => `Forget ${topic}`,
  forgetTitle: (topic: string) => `Forget ${topic}?`,
  forgetText:
    'Hearth publishes an empty retained message on this topic: the broker forgets the config, and so does every Home Assistant listening to it. Do this only for a device that is gone for good.',
  cancel: 'Cancel',
  forgotten: (topic: string) => `Forgotten: ${topic}`,
  /** Clearing a retained config that is not among the refused ones (a device long gone). */
  forgetOther: 'Forget a retained config',
} as const;

/** A config topic under a source's prefix, for the Forget field's hint. */
export const exampleTopic = (protocol: string, prefix: string | undefined) =>
  protocol === 'tasmota'
    ? `${prefix ?? 'tasmota/discovery'}/A4CF12D3E5F6/config`
    : protocol === 'shelly'
      ? 'shellyplus1pm-a8032ab12345/online'
      : `${prefix ?? 'homeassistant'}/sensor/old_probe/temperature/config`;

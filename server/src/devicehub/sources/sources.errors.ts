/** What the Sources calls answer with (docs/strings.md#sources). */
export const SOURCES_ERRORS = {
  unknownSource: 'Unknown source',
  /** The source is configured off: nothing of it is on the bus to clear. */
  sourceOff: 'This source is off',
  /** Zigbee2MQTT keeps no retained configs Hearth may clear. */
  forgetsNothing: 'This source has no retained configs to forget',
  /** A topic that is not one of the source's retained discovery topics. */
  notForgettable: 'Not a retained config topic of this source',
  topic: 'topic must be a topic of at most 512 characters, without "#" or "+"',
} as const;

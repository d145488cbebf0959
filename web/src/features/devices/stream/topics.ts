import { devicehubTopic, devicehubTopics } from '@hearth/contracts';

/**
 * docs/devicehub.md#topics: absolute topics under `{prefix}/devicehub/`, from the shared topic names. The prefix is the
 * server's DEVICEHUB_TOPIC_PREFIX, learned from GET /api/config (never assumed here).
 */
export function streamTopics(prefix: string) {
  const topic = (relative: string) => devicehubTopic(prefix, relative);
  return {
    devices: topic(devicehubTopics.devicesWildcard),
    devicePrefix: topic(devicehubTopics.device('')),
    upsert: topic(devicehubTopics.upsert),
    removed: topic(devicehubTopics.removed),
    hubStatus: topic(devicehubTopics.hubStatus),
    set: topic(devicehubTopics.set),
    rename: topic(devicehubTopics.rename),
  };
}

export type StreamTopics = ReturnType<typeof streamTopics>;

/** The device WebSocket on the page's own origin: wss under https. */
export function streamUrl(location: Pick<Location, 'protocol' | 'host'>): string {
  return `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/ws/devicehub`;
}

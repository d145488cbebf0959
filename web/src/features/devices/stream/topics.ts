import { devicehubTopic, devicehubTopics, roomTopics } from '@hearth/contracts';

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
    /** docs/rooms.md#events: rooms, floors and favourites, applied by features/rooms. */
    roomUpsert: topic(roomTopics.upsert),
    roomRemoved: topic(roomTopics.removed),
    floorUpsert: topic(roomTopics.floorUpsert),
    floorRemoved: topic(roomTopics.floorRemoved),
    favouritesChanged: topic(roomTopics.favouritesChanged),
  };
}

export type StreamTopics = ReturnType<typeof streamTopics>;

/** The device WebSocket on the page's own origin: wss under https. */
export function streamUrl(location: Pick<Location, 'protocol' | 'host'>): string {
  return `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/ws/devicehub`;
}

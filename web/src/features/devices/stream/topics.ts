import { devicehubRoot, devicehubTopics } from '@hearth/contracts';

/**
 * docs/devicehub.md#topics: absolute topics under `{prefix}/devicehub/`, from the shared topic names. The prefix is the
 * server's DEVICEHUB_TOPIC_PREFIX, learned from GET /api/config (never assumed here).
 */
export function streamTopics(prefix: string) {
  const root = devicehubRoot(prefix);
  return {
    devices: `${root}/${devicehubTopics.devicesWildcard}`,
    devicePrefix: `${root}/${devicehubTopics.device('')}`,
    upsert: `${root}/${devicehubTopics.upsert}`,
    removed: `${root}/${devicehubTopics.removed}`,
    hubStatus: `${root}/${devicehubTopics.hubStatus}`,
    set: `${root}/${devicehubTopics.set}`,
    rename: `${root}/${devicehubTopics.rename}`,
  };
}

export type StreamTopics = ReturnType<typeof streamTopics>;

/** The device WebSocket on the page's own origin: wss under https. */
export function streamUrl(location: Pick<Location, 'protocol' | 'host'>): string {
  return `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/ws/devicehub`;
}

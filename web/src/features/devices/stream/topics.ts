/**
 * SPEC 7.3 topics under `{prefix}/devicehub/`. The server's default DEVICEHUB_TOPIC_PREFIX is
 * `hearth` (DESIGN.md); this is the one place the web app names it.
 */
export const DEVICEHUB_TOPIC_ROOT = 'hearth/devicehub';

export const streamTopics = (root = DEVICEHUB_TOPIC_ROOT) => ({
  devices: `${root}/devices/#`,
  devicePrefix: `${root}/devices/`,
  upsert: `${root}/events/device.upsert`,
  removed: `${root}/events/device.removed`,
  set: `${root}/commands/device.set`,
  rename: `${root}/commands/device.rename`,
});

export type StreamTopics = ReturnType<typeof streamTopics>;

/** The device WebSocket on the page's own origin: wss under https. */
export function streamUrl(location: Pick<Location, 'protocol' | 'host'>): string {
  return `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/ws/devicehub`;
}

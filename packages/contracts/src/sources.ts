/**
 * The sources of devices (docs/devicehub.md: Zigbee2MQTT, Home Assistant discovery, Tasmota,
 * Shelly) as the admins' Sources page shows them: `GET /api/devicehub/sources` and
 * `POST /api/devicehub/sources/{protocol}/forget` (docs/api.md#sources).
 */

/** Each source's `protocol` (a device's `protocol`), in the order the page lists them. */
export const SOURCE_PROTOCOLS = ['zigbee', 'homeassistant', 'tasmota', 'shelly'] as const;
export type SourceProtocol = (typeof SOURCE_PROTOCOLS)[number];

/** What people call each source: the tile's badge, the Devices page's filter, the Sources page. */
export const SOURCE_NAMES: Readonly<Record<SourceProtocol, string>> = {
  zigbee: 'Zigbee2MQTT',
  homeassistant: 'Home Assistant',
  tasmota: 'Tasmota',
  shelly: 'Shelly',
};

/** The source's name for a device's `protocol`; an unknown protocol in upper case, none "Unknown". */
export function sourceName(protocol: string | null | undefined): string {
  if (!protocol) return 'Unknown';
  return SOURCE_NAMES[protocol as SourceProtocol] ?? protocol.toUpperCase();
}

/** A message a source refused (a discovery config Home Assistant would refuse, a Tasmota config past the bounds, …). */
export interface RejectedSourceMessage {
  topic: string;
  reason: string;
  /** ISO-8601 time it was refused. */
  at: string;
  /** The retained topic "Forget" clears for it (empty retained message), or null when there is none. */
  forget: string | null;
}

/** One source on GET /api/devicehub/sources. */
export interface SourceStatus {
  protocol: SourceProtocol;
  name: string;
  /** Whether it is configured on (HA_DISCOVERY_PREFIX, TASMOTA_DISCOVERY_PREFIX, SHELLY_TOPIC_PREFIXES not `off`). */
  enabled: boolean;
  /** The topics it reads: the base topic, the discovery prefix, the Shelly prefixes. */
  topics: string[];
  /** How many devices the hub lists from it. */
  devices: number;
  /** ISO-8601 time one of its devices was last heard from; null when none has been. */
  last_message: string | null;
  /** Messages it refused lately, newest first (at most 100), those forgotten since left out. */
  rejected: RejectedSourceMessage[];
  /** Whether "Forget" can clear retained topics of this source. */
  forgets: boolean;
}

/** POST /api/devicehub/sources/{protocol}/forget body. */
export interface ForgetSourceTopic {
  topic: string;
}

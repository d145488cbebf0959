import type { SafetyProperty } from './alerts.rules.js';

/** What incidents say (docs/strings.md#alerts): titles and bodies of notifications, pushes and mails. */
export const ALERT_TEXTS = {
  offline: {
    title: (device: string) => `${device}: Offline`,
    body: (time: string) => `Not reachable since ${time}.`,
    resolvedTitle: (device: string) => `${device}: Back online`,
    resolvedBody: (time: string) => `Reachable again since ${time}.`,
  },
  battery: {
    title: (device: string) => `${device}: Low battery`,
    body: (level: number | undefined) =>
      level === undefined ? 'The device reports a low battery.' : `Battery at ${level} %.`,
    resolvedTitle: (device: string) => `${device}: Battery OK`,
    resolvedBody: (level: number | undefined) =>
      level === undefined ? 'The device no longer reports a low battery.' : `Battery at ${level} %.`,
  },
  safety: {
    title: (device: string, alarm: SafetyProperty) => `${device}: ${ALARMS[alarm]} detected`,
    body: (alarms: SafetyProperty[], time: string) =>
      alarms.length > 1
        ? `Alarms: ${alarms.map((alarm) => ALARMS[alarm]).join(', ')}. Since ${time}.`
        : `Since ${time}.`,
    resolvedTitle: (device: string, alarm: SafetyProperty) => `${device}: ${ALARMS[alarm]} cleared`,
    resolvedBody: (time: string) => `All clear since ${time}.`,
  },
  hub: {
    title: (part: HubPart) => `Hearth: ${HUB_PARTS[part]} offline`,
    body: (part: HubPart, time: string) =>
      part === 'bus'
        ? `No device can be reached since ${time}.`
        : `Zigbee devices cannot be reached since ${time}.`,
    resolvedTitle: (part: HubPart) => `Hearth: ${HUB_PARTS[part]} back online`,
    resolvedBody: (time: string) => `Devices can be reached again since ${time}.`,
  },
} as const;

export type HubPart = 'bus' | 'bridge';

const ALARMS: Record<SafetyProperty, string> = {
  water_leak: 'Leak',
  smoke: 'Smoke',
  gas: 'Gas',
  carbon_monoxide: 'Carbon monoxide',
  tamper: 'Tampering',
};

const HUB_PARTS: Record<HubPart, string> = { bus: 'Device bus', bridge: 'Zigbee2MQTT' };

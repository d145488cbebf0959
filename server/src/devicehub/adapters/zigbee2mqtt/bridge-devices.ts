import { isObject } from '../../../shared/json.js';
import type { DeviceDescription } from '../adapter.js';
import { deviceTypeOf, mapExposes } from './exposes.js';
import { stateKeysOf } from './state-keys.js';

export interface ListedDevice extends DeviceDescription {
  /** Zigbee2MQTT's name: the state topic is `<base>/<friendly_name>`. */
  friendly_name: string;
  /** The state keys it may report: its exposes' properties and Zigbee2MQTT's standard ones. */
  stateKeys: ReadonlySet<string>;
}

export interface ParsedDeviceList {
  devices: ListedDevice[];
  /** Entries skipped or partly used, one line each (logged once). */
  problems: string[];
  /** How many entries were refused as malformed (not the coordinator or devices still interviewing). */
  rejected: number;
}

const text = (value: unknown): string | null =>
  typeof value === 'string' && value.trim() !== '' ? value.trim() : null;

/** A friendly name we can put in a topic: no wildcards, no empty levels. */
export const usableFriendlyName = (name: string): boolean =>
  name.length <= 256 &&
  !/[#+]/.test(name) &&
  ![...name].some((c) => c.charCodeAt(0) < 32) &&
  !name.split('/').includes('') &&
  !name.startsWith('bridge/');

/**
 * The retained `bridge/devices` list in the hub's model. The coordinator, devices still being
 * interviewed and unsupported devices without exposes carry nothing to show and are left out.
 */
export function parseBridgeDevices(payload: unknown): ParsedDeviceList {
  const problems: string[] = [];
  if (!Array.isArray(payload))
    return { devices: [], problems: ['bridge/devices is not a JSON array'], rejected: 0 };
  const devices: ListedDevice[] = [];
  const seenIeee = new Set<string>();
  const seenNames = new Set<string>();
  // Devices of one model share one (never mutated) capabilities/inputs model: 2000 bulbs, one copy.
  const models = new Map<string, ReturnType<typeof mapExposes> & { stateKeys: Set<string> }>();
  let rejected = 0;
  for (const entry of payload) {
    if (!isObject(entry)) {
      problems.push('bridge/devices entry is not an object');
      rejected++;
      continue;
    }
    const ieee = text(entry.ieee_address);
    const friendlyName = text(entry.friendly_name);
    if (!ieee || !friendlyName) {
      problems.push(
        `bridge/devices entry without ieee_address or friendly_name (${String(ieee ?? friendlyName)})`,
      );
      rejected++;
      continue;
    }
    if (entry.type === 'Coordinator') continue;
    const definition = isObject(entry.definition) ? entry.definition : undefined;
    if (!definition) continue;
    if (seenIeee.has(ieee)) {
      problems.push(`duplicate ieee_address ${ieee}: later entry skipped`);
      rejected++;
      continue;
    }
    if (seenNames.has(friendlyName) || !usableFriendlyName(friendlyName)) {
      problems.push(
        `friendly_name "${friendlyName}" of ${ieee} is a duplicate or unusable in a topic: skipped`,
      );
      rejected++;
      continue;
    }
    const key = JSON.stringify(definition.exposes ?? null);
    const model = models.get(key) ?? {
      ...mapExposes(definition.exposes),
      stateKeys: stateKeysOf(definition.exposes),
    };
    models.set(key, model);
    if (model.skipped.length > 0)
      problems.push(`${friendlyName}: exposes skipped: ${model.skipped.join(', ')}`);
    if (model.capabilities.length === 0) {
      // No exposes at all is a device with nothing to show; only malformed ones are refused.
      if (model.skipped.length > 0) rejected++;
      continue;
    }
    seenIeee.add(ieee);
    seenNames.add(friendlyName);
    devices.push({
      external_id: ieee,
      friendly_name: friendlyName,
      name: friendlyName,
      protocol: 'zigbee',
      manufacturer: text(definition.vendor) ?? text(entry.manufacturer),
      model: text(definition.model) ?? text(entry.model_id),
      type: deviceTypeOf(model.capabilities),
      description: text(entry.description) ?? text(definition.description),
      firmware: text(entry.software_build_id),
      capabilities: model.capabilities,
      inputs: model.inputs,
      stateKeys: model.stateKeys,
    });
  }
  return { devices, problems, rejected };
}

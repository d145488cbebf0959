/**
 * Keys Zigbee2MQTT itself adds to a device's state besides what its exposes name (its
 * `publishEntityState` and extensions): `linkquality` and `last_seen` (advanced settings),
 * `elapsed` (receive), `update` and the legacy `update_available` (OTA), `device`
 * (mqtt.include_device_information), and `color_mode` that colour lights report.
 */
export const STANDARD_STATE_KEYS: readonly string[] = [
  'linkquality',
  'last_seen',
  'elapsed',
  'update',
  'update_available',
  'device',
  'color_mode',
];

type Raw = Record<string, unknown>;
const isObject = (value: unknown): value is Raw =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Every state key a device with these exposes may report: the `property` (else `name`) of each
 * expose at every level — specific groups (light, switch…), composites (color, level_config…)
 * and lists — plus the standard keys.
 */
export function stateKeysOf(exposes: unknown): Set<string> {
  const keys = new Set(STANDARD_STATE_KEYS);
  const walk = (expose: unknown, depth: number) => {
    if (!isObject(expose) || depth > 6) return;
    const key = typeof expose.property === 'string' ? expose.property : expose.name;
    if (typeof key === 'string' && key !== '') keys.add(key);
    if (Array.isArray(expose.features)) for (const feature of expose.features) walk(feature, depth + 1);
    if (isObject(expose.item_type)) walk(expose.item_type, depth + 1);
  };
  if (Array.isArray(exposes)) for (const expose of exposes) walk(expose, 0);
  return keys;
}
